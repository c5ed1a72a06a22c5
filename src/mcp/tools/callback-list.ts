import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { packageConfigFolders } from "../../engine/nested-configs.ts";
import { callbackTable } from "../callback-table.ts";
import { loadPackageConfigs, shownPath } from "../package-configs.ts";
import type { ProjectState } from "../project.ts";
import type { ToolContext } from "../tool-context.ts";

/** null when they can. */
export function unusable(state: ProjectState): string | null {
  if (state.kind === "none") {
    return "Cannot use callbacks here: the project has no callbacks.config.ts\nhint: ask the user to run `cpilot init`";
  }
  if (state.kind === "broken")
    return `Cannot use callbacks: the config does not load:\n${state.error}`;
  return null;
}

export function registerCallbackList(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    "callback_list",
    {
      description:
        "List the project's callbacks (checks that run when files are edited): name, description, " +
        "pattern, blocking, per (batch or file), enabled here, and where each is defined; " +
        "then each package whose own config judges the edits in its folder, with its callbacks.",
      inputSchema: {},
    },
    async () => {
      const state = await ctx.project.load();
      const problem = unusable(state);
      const folders = packageConfigFolders(ctx.project.root);
      const own =
        problem !== null || state.kind !== "ok"
          ? null
          : callbackTable(state.config, "", ctx.paused);
      if (folders.length === 0)
        return own === null ? ctx.reply(problem ?? "", true) : ctx.reply(own.join("\n"));
      const lines =
        own === null
          ? [`The project's own config: ${ownProblem(state)}`]
          : ["The project's own callbacks:", ...own];
      for (const pkg of await loadPackageConfigs(ctx.project.root, folders)) {
        lines.push(
          "",
          `In ${shownPath(pkg.folder)} (${shownPath(pkg.label)}), judging the edits in that folder:`,
        );
        if (typeof pkg.config === "string")
          lines.push(
            `its config does not load, so writes there are refused until it is fixed: ${pkg.config}`,
          );
        else lines.push(...callbackTable(pkg.config, pkg.folder, ctx.paused));
      }
      return ctx.reply(lines.join("\n"));
    },
  );
}

function ownProblem(state: ProjectState): string {
  if (state.kind === "broken")
    return `it does not load, so its callbacks do not run:\n${state.error}`;
  return "none, so edits outside the packages below run no callbacks";
}
