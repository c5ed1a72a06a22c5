import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { applyUpdates, projectContext, renderReport, summarize } from "../../context/index.ts";
import type { ToolContext } from "../tool-context.ts";

export function registerContextUpdate(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    "context_update",
    {
      description:
        "Apply <context-update> blocks to the project's markdown memory (default .context/). " +
        'Each block: <context-update file="TASKS.md" action="add|update|remove|complete" section="..." id="...">content</context-update>. ' +
        "The result says what applied and, for each failure, why and the nearest match.",
      inputSchema: {
        text: z.string().describe("Text holding one or more <context-update> blocks"),
        dry_run: z.boolean().optional().describe("Show the diffs, write nothing"),
      },
    },
    async ({ text, dry_run }) => {
      const state = await ctx.project.load();
      const source = state.kind === "ok" ? state.config.source.context : undefined;
      const report = applyUpdates(text, {
        ...projectContext(ctx.project.root, source?.dir),
        ...(source?.files === undefined ? {} : { allowedFiles: source.files }),
        ...(dry_run === undefined ? {} : { dryRun: dry_run }),
      });
      const counts = summarize(report);
      const rendered = renderReport(report, { dryRun: dry_run === true, diffs: dry_run === true });
      return ctx.reply(
        rendered,
        counts.applied === 0 && (!counts.ok || report.results.length === 0),
      );
    },
  );
}
