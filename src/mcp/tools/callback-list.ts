import { basename } from "node:path";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { readManaged } from "../../config/managed.ts";
import { isDeletion, readProposals } from "../../config/proposals.ts";
import { isActive, readToggles } from "../../config/state.ts";
import { renderTable } from "../../ui/table.ts";
import type { ProjectState } from "../project.ts";
import type { ToolContext } from "../tool-context.ts";

/** Tools may change those. */
export function managedNames(root: string): Set<string> {
  try {
    return new Set(
      readManaged(root)
        .map((c) => (c as { name?: unknown })?.name)
        .filter((n): n is string => typeof n === "string"),
    );
  } catch {
    return new Set();
  }
}

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
        "pattern, blocking, per (batch or file), enabled here, and where each is defined.",
      inputSchema: {},
    },
    async () => {
      const state = await ctx.project.load();
      const problem = unusable(state);
      if (problem !== null || state.kind !== "ok") return ctx.reply(problem ?? "", true);
      const toggles = readToggles(state.config.root);
      const managed = managedNames(state.config.root);
      const pending = pendingLines(state.config.root);
      if (state.config.callbacks.length === 0)
        return ctx.reply(
          ["No callbacks yet: callback_upsert proposes one.", ...pending].join("\n"),
        );
      const rows = state.config.callbacks.map((cb) => [
        cb.name,
        cb.description || "-",
        cb.patterns.join(" "),
        cb.blocking ? "yes" : "no",
        cb.per,
        !isActive(cb, toggles) ? "no" : ctx.paused.has(cb.name) ? "paused" : "yes",
        managed.has(cb.name) ? "managed" : "config",
      ]);
      const table = renderTable(
        ["name", "description", "pattern", "blocking", "per", "enabled", "defined in"],
        rows,
      );
      const notes = [
        `config: ${basename(state.config.path) || "the config"}, written by people (callback_upsert cannot change those); managed: callbacks.managed.json`,
      ];
      if (toggles.allDisabled)
        notes.push("The person paused every callback here (cpilot disable --all).");
      if (ctx.paused.allPaused)
        notes.push(
          "You paused every callback for this session (callback_toggle with all: true, enabled: true resumes them).",
        );
      return ctx.reply([table, ...notes, ...pending].join("\n"));
    },
  );
}

/** [] when none (or unreadable). */
function pendingLines(root: string): string[] {
  let proposals: ReturnType<typeof readProposals>;
  try {
    proposals = readProposals(root);
  } catch {
    return [];
  }
  if (proposals.length === 0) return [];
  return [
    "Waiting for the person's approval (they do not run until then):",
    ...proposals.map(
      (p) => `- ${p.name}: ${isDeletion(p) ? "delete it" : `run ${JSON.stringify(p.run)}`}`,
    ),
  ];
}
