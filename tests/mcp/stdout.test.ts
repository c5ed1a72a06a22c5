/**
 * Nothing but protocol on stdout: noisy callbacks and a chatty TypeScript config cannot corrupt
 * it; a function callback's prints reach the tool result, as its run's output.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { writeFiles } from "../helpers/tmp.ts";
import { mcpBinary, project } from "./_client.ts";

const CONFIG = `import { defineConfig } from "cpilot";

console.log("config top-level console.log");
process.stdout.write("config top-level stdout write\\n");

export default defineConfig({
  callbacks: [
    {
      name: "noisy",
      pattern: "*.txt",
      run: "yes 'noise noise noise noise' | head -n 100000; echo to-stderr >&2",
      timeout: 30,
    },
    {
      name: "ts-fn",
      pattern: "*.txt",
      run: (ctx) => {
        console.log("console.log from a function callback");
        console.info("console.info from a function callback");
        process.stdout.write("stdout.write from a function callback\\n");
        ctx.log("ctx.log line");
        return 1;
      },
      timeout: 30,
    },
  ],
});
`;

let proj: ReturnType<typeof project>;

beforeAll(() => {
  proj = project(null);
  writeFiles(proj.dir, { "callbacks.config.ts": CONFIG });
});

afterAll(() => proj.remove());

test("every stdout line is a JSON-RPC message, and the call gets its result", async () => {
  const child = spawn(mcpBinary(), ["mcp"], {
    cwd: proj.dir,
    env: { PATH: "/usr/local/bin:/usr/bin:/bin", HOME: process.env.HOME ?? "/root" },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => {
    stdout += d;
  });
  child.stderr.setEncoding("utf8").on("data", (d: string) => {
    stderr += d;
  });
  const send = (msg: unknown) => child.stdin.write(`${JSON.stringify(msg)}\n`);
  const waitFor = async (id: number): Promise<Record<string, unknown>> => {
    const end = Date.now() + 30_000;
    while (Date.now() < end) {
      for (const line of stdout.split("\n")) {
        if (line.trim() === "") continue;
        const msg = JSON.parse(line) as Record<string, unknown>;
        if (msg.id === id) return msg;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`no response ${id}; stderr: ${stderr}`);
  };
  send({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "raw", version: "0" },
    },
  });
  await waitFor(1);
  send({ jsonrpc: "2.0", method: "notifications/initialized" });
  send({
    jsonrpc: "2.0",
    id: 2,
    method: "tools/call",
    params: { name: "write_file", arguments: { path: "x.txt", content: "hello\n" } },
  });
  const reply = (await waitFor(2)) as {
    result: { content: { text: string }[]; isError?: boolean };
  };
  const text = reply.result.content[0]!.text;
  expect(text).toContain("Created x.txt");
  expect(text).toContain("passed  noisy");
  expect(text).toContain("FAILED  ts-fn");
  expect(text).toContain("ctx.log line");
  // The function's prints are its run's output, as a shell callback's stdout would be.
  expect(text).toContain("console.log from a function callback");
  expect(text).toContain("stdout.write from a function callback");
  child.stdin.end();
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  expect(code).toBe(0);

  for (const line of stdout.split("\n")) {
    if (line === "") continue;
    const msg = JSON.parse(line) as { jsonrpc?: string };
    expect(msg.jsonrpc).toBe("2.0");
  }
  expect(stdout).not.toContain("noise noise");
  // (the function's prints are in there, inside the tool result's JSON, which the loop parsed)
  expect(stdout).not.toContain("config top-level");
  expect(stderr).toContain("config top-level console.log");
  expect(stderr).not.toContain("from a function callback");
}, 60_000);
