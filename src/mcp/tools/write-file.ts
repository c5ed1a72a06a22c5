import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import type { ToolContext } from "../tool-context.ts";

/** The project's callbacks run before the result. */
export function registerWriteFile(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    "write_file",
    {
      description:
        "Create a file or replace its whole content. The path is relative to the project root. " +
        "An existing file keeps its line endings (CRLF stays CRLF) and final-newline state. " +
        "After the write the project's checks (callbacks) run and their results are part of this result; " +
        "if a formatter rewrote the file, the result shows the diff so your picture of it stays right.",
      inputSchema: {
        path: z.string().describe("File path, relative to the project root"),
        content: z.string().describe("The whole new content of the file"),
      },
    },
    async ({ path, content }, extra) => {
      return ctx.edit({ tool: "write_file", path, content }, extra);
    },
  );
}
