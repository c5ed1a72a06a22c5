import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import type { ToolContext } from "../tool-context.ts";

/** A deletion is an edit too: callbacks matching it run. */
export function registerDeleteFile(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    "delete_file",
    {
      description:
        "Delete one file (not a directory). The path is relative to the project root. " +
        "The project's checks (callbacks) that match the file run and their results are part of this result.",
      inputSchema: { path: z.string().describe("File path, relative to the project root") },
    },
    async ({ path }, extra) => {
      return ctx.edit({ tool: "delete_file", path }, extra);
    },
  );
}
