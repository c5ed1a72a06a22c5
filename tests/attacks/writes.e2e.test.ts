/**
 * Attacks on every surface that writes for an agent, against the compiled binary: context
 * updates racing each other (CLI, Stop hook), a `.context` that leads out, a huge block; the
 * MCP server's writes and deletes raced by a folder swapped for a symlink, reads through
 * links to secrets, a huge message, and a client that goes away mid-call.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { makeProject } from "../agents/claude/_helpers.ts";
import { cpilot, cpilotBinary, runtimeEnv } from "../helpers/binary.ts";
import { processAlive, tempDir, waitFor, writeFiles } from "../helpers/tmp.ts";
import { project, startMcp } from "../mcp/_client.ts";
import { spawnAndWait } from "../support/run-cli.ts";

const BUN = join(import.meta.dir, "../../node_modules/.bin/bun");
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

const ENV = () => ({
  PATH: "/usr/local/bin:/usr/bin:/bin",
  HOME: process.env.HOME ?? "/root",
  ...runtimeEnv(),
});

/** The binary as a child process, its output collected. */
function run(
  args: string[],
  cwd: string,
  input: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return spawnAndWait([cpilotBinary(), ...args], { cwd, env: ENV(), input });
}

const addTask = (n: number) =>
  `<context-update file="TASKS.md" action="add" section="Todo">\n- [ ] task ${n}\n</context-update>\n`;

function contextProject(): string {
  const dir = tempDir("cpilot-attack-ctx-", { git: true });
  writeFiles(dir, { ".context/TASKS.md": "# Tasks\n\n## Todo\n\n- [ ] first\n" });
  return dir;
}

const tasksIn = (dir: string) => readFileSync(join(dir, ".context/TASKS.md"), "utf8");

describe("context updates lose nothing under concurrency (item 1)", () => {
  test("30 concurrent `cpilot context apply`, each adding a line: all 30 lines are there", async () => {
    const dir = contextProject();
    const runs = await Promise.all(
      Array.from({ length: 30 }, (_, i) => run(["context", "apply", "-"], dir, addTask(i))),
    );
    for (const r of runs) expect(r.code).toBe(0);
    const text = tasksIn(dir);
    for (let i = 0; i < 30; i++) expect(text).toContain(`- [ ] task ${i}\n`);
    expect(readdirSync(join(dir, ".context"))).toEqual(["TASKS.md"]);
  }, 120_000);

  test("10 parallel Stop hooks, each with its own update: all 10 are kept", async () => {
    const p = makeProject({ callbacks: [] }, { ".context/TASKS.md": "# Tasks\n\n## Todo\n" });
    cleanups.push(p.remove);
    const replies = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        p.hookAsync({
          hook_event_name: "Stop",
          session_id: `s${i}`,
          stop_hook_active: false,
          last_assistant_message: `Done.\n${addTask(i)}`,
        }),
      ),
    );
    for (const r of replies) expect(r.code).toBe(0);
    const text = tasksIn(p.dir);
    for (let i = 0; i < 10; i++) expect(text).toContain(`- [ ] task ${i}\n`);
  }, 120_000);

  test("a lock left by a process that died is broken; a live holder is waited for", async () => {
    const dir = contextProject();
    const lock = join(dir, ".context/.cpilot-context.lock");
    // A holder that is gone (a pid no process has).
    symlinkSync(JSON.stringify({ pid: 2 ** 22 + 12345, started: 1 }), lock);
    const first = await run(["context", "apply", "-"], dir, addTask(1));
    expect(first.code).toBe(0);
    expect(tasksIn(dir)).toContain("- [ ] task 1\n");
    expect(existsSync(lock)).toBe(false);
    // A live holder: the update waits until it is gone, then applies.
    const holder = spawn("sleep", ["600"]);
    cleanups.push(() => holder.kill("SIGKILL"));
    const stat = readFileSync(`/proc/${holder.pid}/stat`, "utf8");
    const started = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]);
    symlinkSync(JSON.stringify({ pid: holder.pid, started }), lock);
    let finished = false;
    const second = run(["context", "apply", "-"], dir, addTask(2)).then((r) => {
      finished = true;
      return r;
    });
    await new Promise((r) => setTimeout(r, 1500));
    expect(finished).toBe(false);
    expect(tasksIn(dir)).not.toContain("task 2");
    holder.kill("SIGKILL");
    const r = await second;
    expect(r.code).toBe(0);
    expect(tasksIn(dir)).toContain("- [ ] task 2\n");
  }, 60_000);
});

describe("context updates stay inside the project and bounded (items 13, 14)", () => {
  test("`cpilot context apply` refuses a .context that is a symlink leading out", () => {
    const dir = tempDir("cpilot-attack-ctx-", { git: true });
    const outside = tempDir("cpilot-attack-outside-");
    symlinkSync(outside, join(dir, ".context"));
    const r = cpilot(["context", "apply", "-"], { cwd: dir, input: addTask(1) });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("leads outside the project");
    expect(readdirSync(outside)).toEqual([]);
  });

  test("one 50 MB block: a clear error, nothing written, memory bounded", () => {
    const dir = contextProject();
    const input = join(dir, "big.txt");
    writeFileSync(
      input,
      `<context-update file="TASKS.md" action="add" section="Todo">\n${"- [ ] x\n".repeat(6_500_000)}</context-update>\n`,
    );
    const before = tasksIn(dir);
    // GNU time's maximum resident set size (KiB) of the run.
    const r = spawnSync(
      "/usr/bin/time",
      ["-f", "maxrss=%M", cpilotBinary(), "context", "apply", input],
      {
        cwd: dir,
        env: ENV(),
        encoding: "utf8",
        timeout: 120_000,
      },
    );
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("block is too big");
    expect(r.stderr).toContain("over the 1.0 MiB limit for one block");
    expect(tasksIn(dir)).toBe(before);
    const rss = Number(/maxrss=(\d+)/.exec(r.stderr)?.[1]);
    // The input itself is 52 MB; a few copies of it are fine, gigabytes are not.
    expect(rss).toBeLessThan(600 * 1024);
  }, 180_000);
});

/** A process that swaps `dir/sub` for a symlink to `outside` and back, until killed. */
function swapper(dir: string, outside: string, name = "sub"): ChildProcess {
  const script = `
const fs = require("node:fs");
const [dir, outside, name] = process.argv.slice(1);
const sub = dir + "/" + name, real = dir + "/" + name + ".real";
for (;;) {
  try { fs.renameSync(sub, real); } catch {}
  try { fs.symlinkSync(outside, sub); } catch {}
  for (let i = 0; i < 2000; i++);
  try { fs.unlinkSync(sub); } catch {}
  try { fs.renameSync(real, sub); } catch {}
  for (let i = 0; i < 2000; i++);
}`;
  const child = spawn(BUN, ["-e", script, dir, outside, name], { stdio: "ignore" });
  cleanups.push(() => child.kill("SIGKILL"));
  return child;
}

describe("MCP writes land where they were checked (item 2)", () => {
  test("write_file racing a folder swapped for a symlink out never writes outside", async () => {
    const proj = project(null, { "sub/keep.txt": "k\n" });
    cleanups.push(proj.remove);
    const outside = tempDir("cpilot-attack-outside-");
    const mcp = await startMcp(proj.dir, { args: ["--batch-window", "0"] });
    cleanups.push(() => void mcp.close());
    const attacker = swapper(proj.dir, outside);
    for (let i = 0; i < 300 && readdirSync(outside).length === 0; i++) {
      await mcp.call("write_file", { path: `sub/f${i}.txt`, content: `agent text ${i}\n` });
    }
    attacker.kill("SIGKILL");
    expect(readdirSync(outside)).toEqual([]);
  }, 180_000);

  test("delete_file racing a folder swapped for a symlink out never deletes outside", async () => {
    const proj = project(null, { "sub/victim.txt": "inside\n" });
    cleanups.push(proj.remove);
    const outside = tempDir("cpilot-attack-outside-");
    writeFileSync(join(outside, "victim.txt"), "outside, must survive\n");
    const mcp = await startMcp(proj.dir, { args: ["--batch-window", "0"] });
    cleanups.push(() => void mcp.close());
    const attacker = swapper(proj.dir, outside);
    for (let i = 0; i < 300 && existsSync(join(outside, "victim.txt")); i++) {
      // Put the inside file back wherever the real folder is right now.
      for (const name of ["sub", "sub.real"]) {
        try {
          writeFileSync(join(proj.dir, name, "victim.txt"), "inside\n", { flag: "wx" });
        } catch {
          // not a folder right now, or the file is there
        }
      }
      await mcp.call("delete_file", { path: "sub/victim.txt" });
    }
    attacker.kill("SIGKILL");
    expect(readFileSync(join(outside, "victim.txt"), "utf8")).toBe("outside, must survive\n");
  }, 180_000);

  test("edit_file through a folder swapped for a symlink never changes a file outside", async () => {
    const proj = project(null, { "sub/conf.txt": "mode = safe\n" });
    cleanups.push(proj.remove);
    const outside = tempDir("cpilot-attack-outside-");
    writeFileSync(join(outside, "conf.txt"), "mode = safe\n");
    const mcp = await startMcp(proj.dir, { args: ["--batch-window", "0"] });
    cleanups.push(() => void mcp.close());
    // A write lands by rename: the outside file's inode changes even when its text does not.
    const ino = () => statSync(join(outside, "conf.txt")).ino;
    const before = ino();
    const attacker = swapper(proj.dir, outside);
    const pair = ["mode = safe", "mode = SAFE"];
    for (let i = 0; i < 400; i++) {
      await mcp.call("edit_file", {
        path: "sub/conf.txt",
        old_string: pair[i % 2],
        new_string: pair[(i + 1) % 2],
      });
      if (ino() !== before) break;
    }
    attacker.kill("SIGKILL");
    expect(readFileSync(join(outside, "conf.txt"), "utf8")).toBe("mode = safe\n");
    expect(ino()).toBe(before);
    expect(readdirSync(outside)).toEqual(["conf.txt"]);
  }, 180_000);
});

describe("context updates land where they were checked (item 2)", () => {
  test("MCP context_update racing .context swapped for a symlink out never writes outside", async () => {
    const proj = project(null, { ".context/TASKS.md": "# Tasks\n\n## Todo\n" });
    cleanups.push(proj.remove);
    const outside = tempDir("cpilot-attack-outside-");
    writeFileSync(join(outside, "TASKS.md"), "# Tasks\n\n## Todo\n");
    const ino = () => statSync(join(outside, "TASKS.md")).ino;
    const before = ino();
    const mcp = await startMcp(proj.dir);
    cleanups.push(() => void mcp.close());
    const attacker = swapper(proj.dir, outside, ".context");
    for (let i = 0; i < 300 && ino() === before; i++) {
      await mcp.call("context_update", { text: addTask(i) });
    }
    attacker.kill("SIGKILL");
    expect(ino()).toBe(before);
    expect(readdirSync(outside)).toEqual(["TASKS.md"]);
    expect(readFileSync(join(outside, "TASKS.md"), "utf8")).toBe("# Tasks\n\n## Todo\n");
  }, 180_000);
});

describe("MCP read_file protects secrets behind links (item 10)", () => {
  test("a link to .env, a link to a link, and a swap race never return the secret", async () => {
    const proj = project(null, { ".env": "API_KEY=hunter2-secret\n", "plain.txt": "plain\n" });
    cleanups.push(proj.remove);
    symlinkSync(".env", join(proj.dir, "innocent.txt"));
    symlinkSync("innocent.txt", join(proj.dir, "twice.txt"));
    mkdirSync(join(proj.dir, "cfg"));
    symlinkSync("../.env", join(proj.dir, "cfg", "settings.txt"));
    const mcp = await startMcp(proj.dir);
    cleanups.push(() => void mcp.close());
    for (const path of ["innocent.txt", "twice.txt", "cfg/settings.txt"]) {
      const r = await mcp.call("read_file", { path });
      expect(r.isError).toBe(true);
      expect(r.text).not.toContain("hunter2");
      expect(r.text).toContain("holds secrets");
    }
    // A file swapped for a link to .env between the check and the read.
    const script = `
const fs = require("node:fs");
const [dir] = process.argv.slice(1);
for (;;) {
  try { fs.unlinkSync(dir + "/swap.txt"); fs.writeFileSync(dir + "/swap.txt", "harmless\\n"); } catch {}
  for (let i = 0; i < 2000; i++);
  try { fs.unlinkSync(dir + "/swap.txt"); fs.symlinkSync(".env", dir + "/swap.txt"); } catch {}
  for (let i = 0; i < 2000; i++);
}`;
    writeFileSync(join(proj.dir, "swap.txt"), "harmless\n");
    const attacker = spawn(BUN, ["-e", script, proj.dir], { stdio: "ignore" });
    cleanups.push(() => attacker.kill("SIGKILL"));
    let leaked = false;
    for (let i = 0; i < 300 && !leaked; i++) {
      leaked = (await mcp.call("read_file", { path: "swap.txt" })).text.includes("hunter2");
    }
    attacker.kill("SIGKILL");
    expect(leaked).toBe(false);
  }, 180_000);
});

/** A raw stdio session with `cpilot mcp`: JSON-RPC lines out, replies by id. */
function rawServer(dir: string) {
  const child = spawn(cpilotBinary(), ["mcp", "--batch-window", "0"], { cwd: dir, env: ENV() });
  cleanups.push(() => child.kill("SIGKILL"));
  const replies = new Map<unknown, Record<string, unknown>>();
  let pending = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => {
    pending += d;
    for (let nl = pending.indexOf("\n"); nl !== -1; nl = pending.indexOf("\n")) {
      const line = pending.slice(0, nl);
      pending = pending.slice(nl + 1);
      const msg = JSON.parse(line) as Record<string, unknown>;
      replies.set(msg.id, msg);
    }
  });
  let exit: number | null | undefined;
  child.on("exit", (code) => {
    exit = code;
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
  return { child, replies, send, exited: () => exit };
}

describe("the MCP server never dies or lingers silently (items 12, 17)", () => {
  test("a 40 MB message gets a JSON-RPC error and the server keeps serving", async () => {
    const proj = project(null);
    cleanups.push(proj.remove);
    const server = rawServer(proj.dir);
    expect(await waitFor(() => server.replies.has(0), 20_000)).toBe(true);
    const huge = "x".repeat(40 * 1024 * 1024);
    server.send({
      jsonrpc: "2.0",
      id: 7,
      method: "tools/call",
      params: { name: "write_file", arguments: { path: "big.txt", content: huge } },
    });
    server.send({ jsonrpc: "2.0", id: 8, method: "tools/list" });
    expect(
      await waitFor(() => server.replies.has(8) || server.exited() !== undefined, 60_000),
    ).toBe(true);
    expect(server.exited()).toBeUndefined();
    const error = server.replies.get(7)?.error as { code: number; message: string } | undefined;
    expect(error?.code).toBe(-32600);
    expect(error?.message).toContain("over the 32.0 MiB limit");
    expect(existsSync(join(proj.dir, "big.txt"))).toBe(false);
    expect(server.replies.get(8)?.result).toBeDefined();
  }, 120_000);

  test("a line that is not JSON, or not JSON-RPC, gets an error reply and the server goes on", async () => {
    const proj = project(null);
    cleanups.push(proj.remove);
    const server = rawServer(proj.dir);
    expect(await waitFor(() => server.replies.has(0), 20_000)).toBe(true);
    server.child.stdin.write("this is not json\n");
    expect(await waitFor(() => server.replies.has(null), 20_000)).toBe(true);
    expect((server.replies.get(null)?.error as { code?: number } | undefined)?.code).toBe(-32700);
    server.replies.delete(null);
    server.send({ hello: "world" });
    expect(await waitFor(() => server.replies.has(null), 20_000)).toBe(true);
    expect((server.replies.get(null)?.error as { code?: number } | undefined)?.code).toBe(-32600);
    server.send({ jsonrpc: "2.0", id: 3, method: "tools/list" });
    expect(await waitFor(() => server.replies.has(3), 20_000)).toBe(true);
    expect(server.exited()).toBeUndefined();
  }, 60_000);

  test("a client that goes away mid-call: its callback is stopped and the server exits", async () => {
    const proj = project({
      callbacks: [
        { name: "slow", pattern: "*.txt", run: "echo $$ > slow.pid; exec sleep 60", timeout: 120 },
      ],
    });
    cleanups.push(proj.remove);
    const server = rawServer(proj.dir);
    server.send({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "write_file", arguments: { path: "a.txt", content: "x\n" } },
    });
    const pidFile = join(proj.dir, "slow.pid");
    expect(
      await waitFor(
        () => existsSync(pidFile) && readFileSync(pidFile, "utf8").trim() !== "",
        20_000,
      ),
    ).toBe(true);
    const pid = Number(readFileSync(pidFile, "utf8").trim());
    expect(processAlive(pid)).toBe(true);
    server.child.stdin.end();
    expect(await waitFor(() => server.exited() !== undefined, 20_000)).toBe(true);
    expect(await waitFor(() => !processAlive(pid), 10_000)).toBe(true);
  }, 60_000);
});
