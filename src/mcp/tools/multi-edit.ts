import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import type { ToolContext } from "../tool-context.ts";

/** All or nothing. */
export function registerMultiEdit(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    "multi_edit",
    {
      description:
        "Make several exact-text edits to one file, all or nothing. Edits apply in order, each to " +
        "the text the previous ones left; if any fails nothing is written and the error says which. " +
        "Then the project's checks (callbacks) run and their results are part of this result, with " +
        "each new_string as it stands if a formatter rewrote it.",
      inputSchema: {
        path: z.string().describe("File path, relative to the project root"),
        edits: z
          .array(
            z.object({
              old_string: z.string().describe("The exact text to replace"),
              new_string: z.string().describe("The text to put in its place"),
              replace_all: z.boolean().optional().describe("Replace every occurrence"),
            }),
          )
          .min(1)
          .describe("The edits, applied in order"),
      },
    },
    async ({ path, edits }, extra) => {
      const list = edits.map((e) => ({
        oldString: e.old_string,
        newString: e.new_string,
        ...(e.replace_all === undefined ? {} : { replaceAll: e.replace_all }),
      }));
      return ctx.edit({ tool: "multi_edit", path, edits: list }, extra);
    },
  );
}
