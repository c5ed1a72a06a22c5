/** A real MCP client (the SDK's) talking to the built `dist/cpilot mcp` over stdio. */
import { rmSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { cpilotBinary, runtimeEnv } from "../helpers/binary.ts";
import { tempDir, writeFiles } from "../helpers/tmp.ts";

export interface ToolReply {
  text: string;
  isError: boolean;
}

export interface McpSession {
  client: Client;
  call(name: string, args?: Record<string, unknown>): Promise<ToolReply>;
  /** Errors the client saw (a non-protocol line on stdout would land here). */
  errors: Error[];
  stderr(): string;
  close(): Promise<void>;
}

/** The built binary (scripts/build.ts renames a new one into place, so it never vanishes mid-run). */
export function mcpBinary(): string {
  return cpilotBinary();
}

/** Start `cpilot mcp` in `cwd` and connect the SDK client to it. */
export async function startMcp(
  cwd: string,
  options: { args?: string[]; env?: Record<string, string> } = {},
): Promise<McpSession> {
  const transport = new StdioClientTransport({
    command: mcpBinary(),
    args: ["mcp", ...(options.args ?? [])],
    cwd,
    env: {
      PATH: "/usr/local/bin:/usr/bin:/bin",
      HOME: process.env.HOME ?? "/root",
      ...runtimeEnv(),
      ...options.env,
    },
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  const client = new Client({ name: "cpilot-test", version: "0.0.0" });
  const errors: Error[] = [];
  client.onerror = (err) => errors.push(err);
  await client.connect(transport);
  return {
    client,
    errors,
    stderr: () => stderr,
    call: async (name, args = {}) => {
      const result = await client.callTool({ name, arguments: args }, undefined, {
        timeout: 60_000,
      });
      const content = (result.content ?? []) as { type: string; text?: string }[];
      return {
        text: content.map((c) => c.text ?? "").join("\n"),
        isError: result.isError === true,
      };
    },
    close: () => client.close(),
  };
}

/** A temp git project with a JSON config (and files), removed by the returned cleanup. */
export function project(
  config: Record<string, unknown> | null,
  files: Record<string, string> = {},
): { dir: string; remove: () => void } {
  const dir = tempDir("cpilot-mcp-", { git: true });
  if (config !== null)
    writeFiles(dir, { "callbacks.config.json": JSON.stringify(config, null, 2) });
  writeFiles(dir, files);
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
