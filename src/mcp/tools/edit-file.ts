import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import type { ToolContext } from "../tool-context.ts";

/** Callbacks run before the result, with formatter resync. */
export function registerEditFile(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    "edit_file",
    {
      description:
        "Replace exact text in a file. old_string must match the file exactly (whitespace included) " +
        "and only once, unless replace_all is true; when it does not, the error shows the nearest " +
        "lines (numbered) or every match. An empty old_string creates a missing or empty file. " +
        "After the edit the project's checks (callbacks) run and their results are part of this result. " +
        "If a formatter rewrote your text, the result shows new_string as it now stands: use that in your next old_string.",
      inputSchema: {
        path: z.string().describe("File path, relative to the project root"),
        old_string: z.string().describe("The exact text to replace"),
        new_string: z.string().describe("The text to put in its place"),
        replace_all: z.boolean().optional().describe("Replace every occurrence (default false)"),
      },
    },
    async ({ path, old_string, new_string, replace_all }, extra) => {
      const edit = {
        oldString: old_string,
        newString: new_string,
        ...(replace_all === undefined ? {} : { replaceAll: replace_all }),
      };
      return ctx.edit({ tool: "edit_file", path, edits: [edit] }, extra);
    },
  );
}
