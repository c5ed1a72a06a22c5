// The hook server, end to end with the compiled binary: a call starts it, later calls are
// answered by it exactly as their own process would answer them (the caller's env, umask,
// config as it is now), and whatever it must not answer is answered in-process.
import { afterAll, describe, expect, test } from "bun:test";
import { spawn, spawnSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import {
  CLAUDE_ENV,
  contextOf,
  makeProject,
  postWrite,
  runAsync,
} from "../agents/claude/_helpers.ts";
import { cpilotBinary } from "../helpers/binary.ts";
import { processAlive, tempDir } from "../helpers/tmp.ts";

interface Call {
  code: number | null;
  stdout: string;
  stderr: string;
  json: unknown;
}

const servers: number[] = [];
afterAll(() => {
  for (const pid of servers) if (processAlive(pid)) process.kill(pid, "SIGTERM");
});

/** A hook call's environment with the hook server on in `runtime` (traced, to see who answered). */
function serverEnv(runtime: string): Record<string, string> {
  return {
    PATH: "/usr/local/bin:/usr/bin:/bin",
    HOME: process.env.HOME ?? "/root",
    ...CLAUDE_ENV,
    CPILOT_HOOK_SERVER: "1",
    CPILOT_RUNTIME_DIR: runtime,
    CPILOT_TRACE: "1",
  };
}

/** Run `cpilot hook claude` with the server wanted, its sockets in `runtime`. */
function call(
  dir: string,
  payload: Record<string, unknown>,
  runtime: string,
  env: Record<string, string> = {},
  shellPrefix = "",
): Call {
  const r = spawnSync("bash", ["-c", `${shellPrefix} exec "$0" hook claude`, cpilotBinary()], {
    cwd: dir,
    env: { ...serverEnv(runtime), ...env },
    input: JSON.stringify({ session_id: "s1", cwd: dir, ...payload }),
    encoding: "utf8",
    timeout: 60_000,
  });
  const json = r.stdout.trim() === "" ? null : JSON.parse(r.stdout);
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, json };
}

/** Wait until a server listens in `runtime`; its pid (found by its command line). */
async function serverUp(runtime: string): Promise<number> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const socket = readdirSync(runtime).find((f) => f.endsWith(".sock"));
    if (socket !== undefined) {
      const pid = pidOf(join(runtime, socket));
      if (pid !== null) {
        servers.push(pid);
        return pid;
      }
    }
    await Bun.sleep(25);
  }
  throw new Error(`no hook server started in ${runtime}`);
}

function pidOf(socket: string): number | null {
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmd = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
      if (cmd.includes("--serve") && cmd.includes(socket)) return Number(entry);
    } catch {
      // gone meanwhile
    }
  }
  return null;
}

const served = (c: Call) => c.stderr.includes("hook answered by the server");
/** Run ids differ from call to call; everything else must not. */
const sameShape = (json: unknown) =>
  JSON.stringify(json).replace(/[a-z0-9]{8}-[a-f0-9]{6}/g, "RUN");

describe("hook server", () => {
  test("a call starts it; later calls get the answer their own process would give, in their env", async () => {
    const runtime = tempDir("cpilot-rt-");
    const p = makeProject({
      callbacks: [
        {
          name: "lint",
          pattern: "*.ts",
          per: "file",
          run: 'echo "bad $CP_CHANGED_FILE mark=$MARK"; exit 3',
          timeout: 30,
        },
      ],
    });
    p.write({ "a.ts": "x\n" });
    const first = call(p.dir, postWrite(p.path("a.ts")), runtime, { MARK: "one" });
    expect(first.stderr).toContain("hook server: no server");
    expect(JSON.stringify(first.json)).toContain("bad a.ts mark=one");
    await serverUp(runtime);

    const viaServer = call(p.dir, postWrite(p.path("a.ts")), runtime, { MARK: "two" });
    expect(served(viaServer)).toBe(true);
    expect(viaServer.code).toBe(0);
    const inProcess = call(p.dir, postWrite(p.path("a.ts")), runtime, {
      MARK: "two",
      CPILOT_HOOK_SERVER: "0",
    });
    expect(served(inProcess)).toBe(false);
    expect(sameShape(viaServer.json)).toBe(sameShape(inProcess.json));
    expect(JSON.stringify(viaServer.json)).toContain("bad a.ts mark=two");
    expect((viaServer.json as { decision?: string }).decision).toBe("block");
  }, 30_000);

  test("the caller's umask and the config as it is now, edits included", async () => {
    const runtime = tempDir("cpilot-rt-");
    const p = makeProject({
      callbacks: [
        { name: "mask", pattern: "*.ts", run: "umask > mask.txt", timeout: 30, per: "file" },
      ],
    });
    p.write({ "a.ts": "x\n" });
    call(p.dir, postWrite(p.path("a.ts")), runtime);
    await serverUp(runtime);

    const c = call(p.dir, postWrite(p.path("a.ts")), runtime, {}, "umask 077;");
    expect(served(c)).toBe(true);
    expect(readFileSync(p.path("mask.txt"), "utf8").trim()).toBe("0077");

    writeFileSync(
      p.path("callbacks.config.json"),
      JSON.stringify({
        callbacks: [
          {
            name: "greet",
            pattern: "*.ts",
            run: "true",
            successMessage: "new config",
            timeout: 9,
            per: "file",
          },
        ],
      }),
    );
    const after = call(p.dir, postWrite(p.path("a.ts")), runtime);
    expect(served(after)).toBe(true);
    expect(contextOf(after.json)).toContain("new config");
  }, 30_000);

  test("a config that is more than data is answered in-process, and sees its helper's edits", async () => {
    const runtime = tempDir("cpilot-rt-");
    const p = makeProject({ callbacks: [] });
    p.write({
      "a.ts": "x\n",
      "helper.ts": 'export const message = "helper v1";\n',
      "callbacks.config.ts": [
        'import { defineConfig } from "cpilot";',
        'import { message } from "./helper.ts";',
        "export default defineConfig({",
        '  callbacks: [{ name: "t", pattern: "a.ts", run: "true", successMessage: message, timeout: 9, per: "file" }],',
        "});",
        "",
      ].join("\n"),
    });
    call(p.dir, postWrite(p.path("a.ts")), runtime);
    await serverUp(runtime);

    const c = call(p.dir, postWrite(p.path("a.ts")), runtime);
    expect(c.stderr).toContain("hook server: ");
    expect(c.stderr).toContain('it imports "./helper.ts"');
    expect(contextOf(c.json)).toContain("helper v1");
    p.write({ "helper.ts": 'export const message = "helper v2";\n' });
    expect(contextOf(call(p.dir, postWrite(p.path("a.ts")), runtime).json)).toContain("helper v2");
  }, 30_000);

  test("a config whose loading would run code is never loaded by the server: one that hangs cannot hang it", async () => {
    const runtime = tempDir("cpilot-rt-");
    const p = makeProject({ callbacks: [] });
    p.write({ "a.ts": "x\n" });
    call(p.dir, postWrite(p.path("a.ts")), runtime);
    await serverUp(runtime);
    // plain-looking (no process, no imports), so only the loading itself shows it hangs
    rmSync(p.path("callbacks.config.json"));
    p.write({
      "callbacks.config.ts": "let i = 0;\nwhile (true) i++;\nexport default { callbacks: [] };\n",
    });
    const pre = {
      hook_event_name: "PreToolUse",
      tool_name: "Write",
      tool_input: { file_path: p.path(".git/hooks/pre-commit"), content: "x" },
    };
    for (let i = 0; i < 2; i++) {
      const r = call(p.dir, pre, runtime, { CPILOT_CONFIG_LOAD_TIMEOUT_MS: "2000" });
      expect(r.stderr).toContain("loading it runs code");
      expect(r.json).toMatchObject({ hookSpecificOutput: { permissionDecision: "deny" } });
    }
  }, 60_000);

  test("a call that comes while the server is busy is answered by its own process", async () => {
    const runtime = tempDir("cpilot-rt-");
    const p = makeProject({
      callbacks: [
        {
          name: "slow",
          pattern: "slow.ts",
          run: "sleep 1.5",
          timeout: 30,
          successMessage: "slow ok",
          per: "file",
        },
        {
          name: "quick",
          pattern: "quick.ts",
          run: "true",
          timeout: 30,
          successMessage: "quick ok",
          per: "file",
        },
      ],
    });
    p.write({ "slow.ts": "x\n", "quick.ts": "x\n" });
    call(p.dir, postWrite(p.path("quick.ts")), runtime);
    await serverUp(runtime);

    const slow = runAsync(
      ["hook", "claude"],
      p.dir,
      { ...CLAUDE_ENV, CPILOT_HOOK_SERVER: "1", CPILOT_RUNTIME_DIR: runtime, CPILOT_TRACE: "1" },
      JSON.stringify({ session_id: "s1", cwd: p.dir, ...postWrite(p.path("slow.ts")) }),
    );
    // The slow run is under way once its running record exists.
    const running = join(p.dir, ".cpilot", "running");
    const deadline = Date.now() + 10_000;
    while (!(existsSync(running) && readdirSync(running).some((f) => f.endsWith(".json")))) {
      if (Date.now() > deadline) throw new Error("the slow run never started");
      await Bun.sleep(10);
    }
    const quick = call(p.dir, postWrite(p.path("quick.ts")), runtime);
    expect(quick.stderr).toContain("hook server: busy with another call");
    expect(contextOf(quick.json)).toContain("quick ok");
    const done = await slow;
    expect(served(done)).toBe(true);
    expect(contextOf(done.json)).toContain("slow ok");
  }, 30_000);

  test("a payload of megabytes is answered in-process: copying it would cost more", async () => {
    const runtime = tempDir("cpilot-rt-");
    const p = makeProject({
      callbacks: [
        { name: "t", pattern: "*.ts", run: "true", timeout: 9, per: "file", successMessage: "ok" },
      ],
    });
    p.write({ "a.ts": "x\n" });
    call(p.dir, postWrite(p.path("a.ts")), runtime);
    await serverUp(runtime);
    const big = postWrite(p.path("a.ts"));
    (big.tool_input as { content: string }).content = "x".repeat(2 * 1024 * 1024);
    const c = call(p.dir, big, runtime);
    expect(c.stderr).toContain("hook server: payload too large to hand over");
    expect(contextOf(c.json)).toContain("ok");
    expect(served(call(p.dir, postWrite(p.path("a.ts")), runtime))).toBe(true);
  }, 30_000);

  test("stderr of a call comes back with the answer", async () => {
    const runtime = tempDir("cpilot-rt-");
    const p = makeProject({
      callbacks: [{ name: "t", pattern: "*.ts", run: "true", timeout: 9, per: "file" }],
    });
    call(p.dir, { hook_event_name: "SessionStart" }, runtime);
    await serverUp(runtime);
    // No event name: the adapter answers nothing and says why on stderr.
    const c = call(p.dir, {}, runtime);
    const inProcess = call(p.dir, {}, runtime, { CPILOT_HOOK_SERVER: "0" });
    expect(served(c)).toBe(true);
    const strip = (s: string) => s.replace(/^\[trace\].*\n/gm, "");
    expect(strip(c.stderr)).toContain("cpilot: ");
    expect(strip(c.stderr)).toBe(strip(inProcess.stderr));

    // What the call's own process writes to stderr on its way (a gate log it cannot append
    // to) comes back with the answer too.
    mkdirSync(join(p.dir, ".cpilot", "gate.log.jsonl"), { recursive: true });
    const pre = {
      hook_event_name: "PreToolUse",
      tool_name: "Write",
      tool_input: { file_path: p.path("b.ts"), content: "x" },
      tool_use_id: "toolu_9",
    };
    const gated = call(p.dir, pre, runtime);
    expect(served(gated)).toBe(true);
    expect(gated.stderr).toContain("cannot append to the gate log .cpilot/gate.log.jsonl");
    const gatedHere = call(p.dir, pre, runtime, { CPILOT_HOOK_SERVER: "0" });
    expect(strip(gated.stderr)).toBe(strip(gatedHere.stderr));
    expect(gated.stdout).toBe(gatedHere.stdout);
    expect(c.stdout).toBe(inProcess.stdout);
  }, 30_000);

  test("SIGTERM while the server decides on a write: the write is denied, never let through", async () => {
    const runtime = tempDir("cpilot-rt-");
    const p = makeProject({ callbacks: [] });
    const pidFile = p.path("plugin.pid");
    p.write({
      "callbacks.config.json": JSON.stringify({
        callbacks: [],
        gate: { plugins: [{ command: `echo $$ > '${pidFile}'; exec sleep 30`, timeout: 60 }] },
      }),
    });
    call(p.dir, { hook_event_name: "SessionStart" }, runtime);
    await serverUp(runtime);
    const child = spawn(cpilotBinary(), ["hook", "claude"], {
      cwd: p.dir,
      env: serverEnv(runtime),
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    child.stdin.end(
      JSON.stringify({
        session_id: "s1",
        cwd: p.dir,
        hook_event_name: "PreToolUse",
        tool_name: "Write",
        tool_input: { file_path: p.path("b.ts"), content: "x" },
        tool_use_id: "toolu_9",
      }),
    );
    // The server runs the plugin for this call once the plugin's pid is written.
    const deadline = Date.now() + 15_000;
    while (!(existsSync(pidFile) && readFileSync(pidFile, "utf8").trim() !== "")) {
      if (Date.now() > deadline) throw new Error("the gate plugin never started");
      await Bun.sleep(20);
    }
    const plugin = Number(readFileSync(pidFile, "utf8"));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(stderr).not.toContain("hook server: no server");
    expect(stderr).toContain("stopped (SIGTERM) before the hook server answered");
    expect(JSON.parse(stdout)).toMatchObject({
      hookSpecificOutput: { permissionDecision: "deny" },
    });
    // (a gate plugin does not stop with the call, in a server or in the call's own process)
    process.kill(plugin, "SIGKILL");
  }, 60_000);

  test("old runs are pruned by the server too, once each answer is out", async () => {
    const runtime = tempDir("cpilot-rt-");
    const p = makeProject({
      keepLogs: 3,
      callbacks: [{ name: "t", pattern: "*.ts", run: "true", timeout: 9, per: "file" }],
    });
    p.write({ "a.ts": "x\n" });
    call(p.dir, postWrite(p.path("a.ts")), runtime);
    await serverUp(runtime);
    const runIds = () =>
      new Set(
        readdirSync(p.path(".cpilot/runs"))
          .filter((f) => /^[0-9a-z]+-[0-9a-f]+\.(log|json)$/.test(f))
          .map((f) => f.replace(/\.(log|json)$/, "")),
      );
    for (let i = 0; i < 12; i++) {
      const c = call(p.dir, postWrite(p.path("a.ts"), `toolu_${i}`), runtime);
      expect(served(c)).toBe(true);
    }
    // 13 runs made; 3 kept, and at most the few due before the next prune (runs-store.ts)
    expect(runIds().size).toBeLessThanOrEqual(6);
  }, 30_000);

  test("an idle server stops and removes its socket; so does one whose socket is taken away", async () => {
    const runtime = tempDir("cpilot-rt-");
    const p = makeProject({
      callbacks: [{ name: "t", pattern: "*.ts", run: "true", timeout: 9, per: "file" }],
    });
    p.write({ "a.ts": "x\n" });
    call(p.dir, postWrite(p.path("a.ts")), runtime, { CPILOT_HOOK_SERVER_IDLE_MS: "400" });
    const pid = await serverUp(runtime);
    const deadline = Date.now() + 10_000;
    while (processAlive(pid) && Date.now() < deadline) await Bun.sleep(50);
    expect(processAlive(pid)).toBe(false);
    expect(readdirSync(runtime).filter((f) => f.endsWith(".sock"))).toEqual([]);

    call(p.dir, postWrite(p.path("a.ts")), runtime);
    const second = await serverUp(runtime);
    for (const f of readdirSync(runtime)) rmSync(join(runtime, f), { force: true });
    const until = Date.now() + 15_000;
    while (processAlive(second) && Date.now() < until) await Bun.sleep(100);
    expect(processAlive(second)).toBe(false);
  }, 40_000);

  test("no server unless asked for, nor in a runtime folder others can enter", async () => {
    const p = makeProject({
      callbacks: [{ name: "t", pattern: "*.ts", run: "true", timeout: 9, per: "file" }],
    });
    p.write({ "a.ts": "x\n" });
    const open = tempDir("cpilot-rt-");
    chmodSync(open, 0o755);
    const unset = tempDir("cpilot-rt-");
    const off = tempDir("cpilot-rt-");
    const cases: [string, Record<string, string>][] = [
      [open, {}],
      [unset, { CPILOT_HOOK_SERVER: "" }],
      [off, { CPILOT_HOOK_SERVER: "0" }],
    ];
    for (const [runtime, env] of cases) {
      const c = call(p.dir, postWrite(p.path("a.ts")), runtime, env);
      expect(c.code).toBe(0);
      expect(c.stderr).not.toContain("hook server");
    }
    await Bun.sleep(500);
    for (const [runtime] of cases) {
      expect(readdirSync(runtime).filter((f) => f.endsWith(".sock"))).toEqual([]);
    }
  }, 30_000);
});
