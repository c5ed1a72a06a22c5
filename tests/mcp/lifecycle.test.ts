/** When the client goes away (stdin closes) or the server is told to stop, no callback is left behind. */
import { afterEach, expect, test } from "bun:test";
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { processAlive, waitFor } from "../helpers/tmp.ts";
import { mcpBinary, project } from "./_client.ts";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function serve(dir: string): {
  child: ChildProcessWithoutNullStreams;
  call: (tool: string, args: object) => void;
} {
  const child = spawn(mcpBinary(), ["mcp"], {
    cwd: dir,
    env: { PATH: "/usr/local/bin:/usr/bin:/bin", HOME: process.env.HOME ?? "/root" },
  });
  const send = (msg: unknown) => child.stdin.write(`${JSON.stringify(msg)}\n`);
  send({
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "raw", version: "0" },
    },
  });
  send({ jsonrpc: "2.0", method: "notifications/initialized" });
  let id = 1;
  cleanups.push(() => child.kill("SIGKILL"));
  return {
    child,
    call: (name, args) =>
      send({ jsonrpc: "2.0", id: id++, method: "tools/call", params: { name, arguments: args } }),
  };
}

const exited = (child: ChildProcessWithoutNullStreams): Promise<number | null> =>
  new Promise((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.on("exit", (code) => resolve(code));
  });

const pidIn = (path: string): number => Number(readFileSync(path, "utf8").trim());

test("stdin closing stops the background runs and the server exits", async () => {
  const proj = project({
    callbacks: [
      { name: "bg", pattern: "*.txt", run: "echo $$ > bg.pid; exec sleep 600", blocking: false },
    ],
  });
  cleanups.push(proj.remove);
  const { child, call } = serve(proj.dir);
  call("write_file", { path: "a.txt", content: "x\n" });
  expect(
    await waitFor(() => {
      try {
        return pidIn(join(proj.dir, "bg.pid")) > 0;
      } catch {
        return false;
      }
    }, 20_000),
  ).toBe(true);
  const pid = pidIn(join(proj.dir, "bg.pid"));
  expect(processAlive(pid)).toBe(true);
  // The run would last ten minutes: the server exiting at all means it did not wait for it.
  child.stdin.end();
  expect(await exited(child)).toBe(0);
  expect(await waitFor(() => !processAlive(pid), 20_000)).toBe(true);
}, 60_000);

test("SIGTERM during a blocking callback kills it and the server exits", async () => {
  const proj = project({
    callbacks: [
      { name: "slow", pattern: "*.txt", run: "echo $$ > slow.pid; exec sleep 600", timeout: 600 },
    ],
  });
  cleanups.push(proj.remove);
  const { child, call } = serve(proj.dir);
  call("write_file", { path: "a.txt", content: "x\n" });
  expect(
    await waitFor(() => {
      try {
        return pidIn(join(proj.dir, "slow.pid")) > 0;
      } catch {
        return false;
      }
    }, 20_000),
  ).toBe(true);
  const pid = pidIn(join(proj.dir, "slow.pid"));
  child.kill("SIGTERM");
  await exited(child);
  expect(await waitFor(() => !processAlive(pid), 20_000)).toBe(true);
}, 60_000);
