/** `cpilot hook claude` never hangs, never crashes into the model, reports a broken config once, and loses nothing under concurrency. */
import { afterEach, describe, expect, test } from "bun:test";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { listRunning } from "../../../src/engine/running.ts";
import { runtimeEnv } from "../../helpers/binary.ts";
import { processAlive, tempDir } from "../../helpers/tmp.ts";
import {
  binary,
  CLAUDE_ENV,
  contextOf,
  cpilot,
  makeProject,
  type Project,
  postBatch,
  postWrite,
} from "./_helpers.ts";

const projects: Project[] = [];
afterEach(() => {
  for (const p of projects.splice(0)) p.remove();
});
function project(config: unknown, files: Record<string, string> = {}): Project {
  const p = makeProject(config, files);
  projects.push(p);
  return p;
}

test("what a config or a TypeScript callback prints never reaches stdout, the protocol's", () => {
  const p = project({ callbacks: [] });
  rmSync(p.path("callbacks.config.json"));
  p.write({
    "callbacks.config.ts": `console.log("config says hi");
export default {
  callbacks: [
    {
      name: "fn",
      pattern: "*.ts",
      per: "file",
      timeout: 5,
      successMessage: "fn ok",
      run: () => {
        console.log("callback says hi");
        process.stdout.write("callback writes stdout\\n");
        return 0;
      },
    },
  ],
};
`,
    "a.ts": "x",
  });
  const r = p.hook(postWrite(p.path("a.ts")));
  expect(r.code).toBe(0);
  expect(contextOf(r.json)).toContain("fn ok"); // stdout is one JSON document
  expect(r.stdout).not.toContain("says hi");
  expect(r.stderr).toContain("config says hi");
  // The callback's prints are its run's output (its log), like a shell callback's stdout.
  expect(r.stderr).not.toContain("callback says hi");
  const logs = readdirSync(p.path(".cpilot/runs")).filter((f) => f.endsWith(".log"));
  const log = readFileSync(p.path(`.cpilot/runs/${logs[0]}`), "utf8");
  expect(log).toContain("callback says hi\ncallback writes stdout\n");
});

/**
 * A hook call whose blocking callback would run for ten minutes, longer than any test may
 * last (so a hook that waited for it would fail the test), started in its own process; resolves
 * once the callback runs and is recorded as running (the hook writes the record just after
 * the spawn: a hook killed before that, which a busy machine made likely, left a run no
 * one knew of), with the hook's process and the callback's pid.
 */
async function hookWithSlowCallback(): Promise<{
  p: Project;
  child: ReturnType<typeof spawn>;
  pid: number;
}> {
  const p = project({
    callbacks: [
      {
        name: "slow",
        pattern: "*.ts",
        per: "file",
        run: `echo $$ > "${"$"}CP_PROJECT_ROOT/slow.pid"; sleep 600`,
        timeout: 900,
      },
    ],
  });
  p.write({ "a.ts": "x" });
  const child = spawn(binary(), ["hook", "claude"], {
    cwd: p.dir,
    env: { PATH: "/usr/bin:/bin", ...CLAUDE_ENV, ...runtimeEnv() },
    stdio: ["pipe", "pipe", "pipe"],
  });
  child.stdin?.end(JSON.stringify({ session_id: "s1", cwd: p.dir, ...postWrite(p.path("a.ts")) }));
  await waitFor(
    () => existsSync(p.path("slow.pid")) && readFileSync(p.path("slow.pid"), "utf8").trim() !== "",
    10_000,
  );
  await waitFor(() => listRunning(p.dir).some((r) => r.pid !== null && r.pid > 0), 10_000);
  return { p, child, pid: Number(readFileSync(p.path("slow.pid"), "utf8")) };
}

test("a hook the agent stops (SIGTERM, its timeout) stops the callbacks it started", async () => {
  const { child, pid } = await hookWithSlowCallback();
  child.kill("SIGTERM");
  await new Promise((resolve) => child.on("exit", resolve));
  await waitFor(() => !processAlive(pid), 20_000); // generous: a busy machine is slow, a leak is forever
});

test("runs left by a hook that was killed outright are stopped when the next session starts", async () => {
  const { p, child, pid } = await hookWithSlowCallback();
  child.kill("SIGKILL"); // nothing can stop the callback now
  await new Promise((resolve) => child.on("exit", resolve));
  expect(p.hook({ hook_event_name: "SessionStart", session_id: "s2" }).code).toBe(0);
  await waitFor(() => !processAlive(pid), 20_000); // generous: a busy machine is slow, a leak is forever
});

test("the hook exits once it has answered, even when a TypeScript callback left a timer", () => {
  const p = project({ callbacks: [] });
  rmSync(p.path("callbacks.config.json"));
  p.write({
    "callbacks.config.ts": `export default {
  callbacks: [
    { name: "fn", pattern: "*.ts", per: "file", timeout: 5, run: () => { setTimeout(() => {}, 600_000); return 0; } },
  ],
};
`,
    "a.ts": "x",
  });
  // the timer would hold the hook ten minutes: past the 60 s the test gives the binary
  const r = p.hook(postWrite(p.path("a.ts")));
  expect(r.code).toBe(0);
});

describe("bad payloads", () => {
  test.each([
    ["empty stdin", "", "stdin was empty"],
    ["not JSON", "{oops", "Cannot read the hook input"],
    ["a JSON array", "[1,2]", "not a JSON object"],
    ["no event name", '{"session_id":"s"}', "no hook_event_name"],
  ])("%s: exit 0, a deny (it may be a write), one line on stderr", (_, input, message) => {
    const p = project({ callbacks: [{ name: "x", pattern: "*", run: "exit 1", timeout: 5 }] });
    const r = cpilot(["hook", "claude"], { cwd: p.dir, input });
    expect(r.code).toBe(0);
    // The event cannot be read: the hook fails closed, in PreToolUse's deny form.
    expect(JSON.parse(r.stdout)).toEqual({
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "deny",
        permissionDecisionReason: expect.stringContaining("could not read this hook call's input"),
      },
    });
    expect(r.stderr).toContain(message);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  test("unknown events and odd tool inputs are ignored", () => {
    const p = project({ callbacks: [{ name: "x", pattern: "*", run: "exit 1", timeout: 5 }] });
    expect(p.hook({ hook_event_name: "Notification", message: "hi" }).stdout).toBe("");
    const odd = p.hook({
      hook_event_name: "PostToolUse",
      tool_name: "Write",
      tool_input: { file_path: 42 },
    });
    expect(odd).toMatchObject({ code: 0, stdout: "" });
    const noInput = p.hook({ hook_event_name: "PostToolUse", tool_name: "Write" });
    expect(noInput).toMatchObject({ code: 0, stdout: "" });
  });

  test("stdin that never closes: the hook gives up after its timeout instead of hanging", async () => {
    const p = project({ callbacks: [] });
    const child = spawn(binary(), ["hook", "claude"], {
      cwd: p.dir,
      env: { PATH: "/usr/bin:/bin", CPILOT_HOOK_STDIN_TIMEOUT_MS: "300", ...runtimeEnv() },
      stdio: ["pipe", "pipe", "pipe"],
    });
    child.stdin.write('{"hook_event_name":');
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (d: string) => {
      stderr += d;
    });
    const code = await new Promise<number | null>((r) => child.on("close", r));
    child.stdin.destroy();
    expect(code).toBe(0);
    expect(stderr).toContain("stdin did not close within 0.3 s");
  });

  test("an unknown agent is a usage error for the person, exit 2", () => {
    const r = cpilot(["hook", "notepad"], { cwd: "/tmp", input: "{}" });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Cannot answer hooks for "notepad"');
  });
});

describe("how the input arrives", () => {
  /** `cpilot hook claude` behind a bash command line that feeds its stdin. */
  function hookBehind(p: Project, feed: string): { code: number | null; json: unknown } {
    const r = spawnSync("bash", ["-c", `${feed} "$0" hook claude`, binary()], {
      cwd: p.dir,
      env: { PATH: "/usr/bin:/bin", ...CLAUDE_ENV, ...runtimeEnv() },
      encoding: "utf8",
      timeout: 60_000,
    });
    return { code: r.status, json: r.stdout.trim() === "" ? null : JSON.parse(r.stdout) };
  }

  test("from a file, and from a pipe whose writer pauses midway: the whole input, the same answer", () => {
    const p = project({
      callbacks: [
        {
          name: "t",
          pattern: "*.ts",
          run: "true",
          timeout: 30,
          per: "file",
          successMessage: "t ok",
        },
      ],
    });
    const payload = JSON.stringify({ session_id: "s1", cwd: p.dir, ...postWrite(p.path("a.ts")) });
    const half = Math.floor(payload.length / 2);
    p.write({
      "a.ts": "x",
      "first.part": payload.slice(0, half),
      "second.part": payload.slice(half),
      "whole.json": payload,
    });
    const fromFile = hookBehind(p, "exec <whole.json;");
    expect(fromFile.code).toBe(0);
    expect(contextOf(fromFile.json)).toContain("t ok");
    // What is there at the start is read at once; the rest comes when the writer sends it.
    const paused = hookBehind(p, "{ cat first.part; sleep 0.3; cat second.part; } |");
    expect(paused.code).toBe(0);
    expect(contextOf(paused.json)).toContain("t ok");
  });
});

describe("a broken config", () => {
  const broken = { callbacks: [{ name: "Bad Name", pattern: "*.ts", run: "true" }] };

  test("reaches the model once per session as a clear message, then only stderr", () => {
    const p = project(broken);
    const first = p.hook(postWrite(p.path("a.ts")));
    expect(first.code).toBe(0);
    const reason = (first.json as { decision: string; reason: string }).reason;
    expect(first.json).toMatchObject({ decision: "block" });
    expect(reason).toContain("cpilot: the project's checks are NOT running: its config is broken.");
    expect(reason).toContain("callbacks[0].name");
    expect(reason).toContain("callbacks[0].timeout");
    expect(reason).not.toMatch(/\n\s+at /);
    const again = p.hook(postWrite(p.path("b.ts"), "toolu_2"));
    expect(again.stdout).toBe("");
    expect(again.stderr).toContain("callbacks[0].name");
    expect(p.hook({ hook_event_name: "Stop" }).stdout).toBe("");
    // A new session hears it once too, through the first event that reaches the model.
    expect(contextOf(p.hook({ hook_event_name: "SessionStart", session_id: "s2" }).json)).toContain(
      "config is broken",
    );
  });

  test("writes still pass the gate's built-in protections while the config is broken", () => {
    const p = project(broken);
    const pre = {
      hook_event_name: "PreToolUse",
      permission_mode: "default",
      tool_name: "Write",
      tool_input: { file_path: p.path(".env"), content: "K=1" },
    };
    const out = p.hook(pre).json as { hookSpecificOutput: Record<string, string> };
    expect(out.hookSpecificOutput.permissionDecision).toBe("deny");
    // the config itself is the person's to fix: Claude Code asks them
    const fix = {
      ...pre,
      tool_input: { file_path: p.path("callbacks.config.json"), content: "{}" },
    };
    const asked = p.hook(fix).json as { hookSpecificOutput: Record<string, string> };
    expect(asked.hookSpecificOutput.permissionDecision).toBe("ask");
    // Where Claude Code lets an "ask" through unasked, or the mode is unknown: a deny.
    for (const mode of ["bypassPermissions", "auto", "acceptEdits", "dontAsk", undefined]) {
      const out = p.hook({ ...fix, permission_mode: mode }).json as {
        hookSpecificOutput: Record<string, string>;
      };
      expect({ mode, decision: out.hookSpecificOutput.permissionDecision }).toEqual({
        mode,
        decision: "deny",
      });
    }
    const other = { ...pre, tool_input: { file_path: p.path("src/a.ts"), content: "x" } };
    expect(p.hook(other).stdout).toBe("");
  });

  test("a TypeScript config that throws is a config error too, not a crash", () => {
    const p = project({ callbacks: [] });
    writeFileSync(p.path("callbacks.config.ts"), 'throw new Error("boom at import");\n');
    const r = p.hook(postWrite(p.path("a.ts")));
    expect((r.json as { reason: string }).reason).toContain("boom at import");
  });
});

describe("concurrent hook processes", () => {
  test("queue holds across processes: runs of one callback never overlap", async () => {
    const p = project({
      callbacks: [
        {
          name: "slow",
          pattern: "*.ts",
          run: 'echo "start $CP_CHANGED_FILE" >> trace; sleep 0.2; echo "end $CP_CHANGED_FILE" >> trace',
          timeout: 30,
          per: "file",
          overlap: "queue",
        },
      ],
    });
    const n = 5;
    await Promise.all(
      Array.from({ length: n }, (_, i) => p.hookAsync(postWrite(p.path(`f${i}.ts`), `toolu_${i}`))),
    );
    const lines = readFileSync(p.path("trace"), "utf8").trim().split("\n");
    expect(lines).toHaveLength(2 * n);
    for (let i = 0; i < lines.length; i += 2) {
      const file = lines[i]?.slice("start ".length);
      expect([lines[i], lines[i + 1]]).toEqual([`start ${file}`, `end ${file}`]);
    }
  });

  test("replace holds across processes: a newer run stops the older one, which reports nothing", async () => {
    // Each run notes its start and lasts until the test creates `release`: the second hook
    // comes while the first run is running, however slowly either process starts.
    const marks = tempDir("cpilot-replace-marks-");
    const started = join(marks, "started");
    const release = join(marks, "release");
    const run = `echo "$CP_RUN_ID" >> '${started}'; until [ -e '${release}' ]; do sleep 0.05; done; exit 1`;
    const p = project({
      callbacks: [{ name: "types", pattern: "*.ts", run, timeout: 60, overlap: "replace" }],
    });
    const starts = () =>
      existsSync(started) ? readFileSync(started, "utf8").trim().split("\n") : [];
    const first = p.hookAsync(postBatch([p.path("a.ts")]));
    await waitFor(() => starts().length === 1, 30_000);
    const second = p.hookAsync(postBatch([p.path("b.ts")]));
    // the second run starts once the first is stopped
    await waitFor(() => starts().length === 2, 30_000);
    writeFileSync(release, "");
    const [a, b] = await Promise.all([first, second]);
    expect(contextOf(a.json)).toBe("");
    expect(contextOf(b.json)).toContain("✗ 'types' failed on b.ts");
    const records = readdirSync(p.path(".cpilot/runs"))
      .filter((n) => n.endsWith(".json"))
      .map(
        (n) => JSON.parse(readFileSync(p.path(`.cpilot/runs/${n}`), "utf8")) as { status: string },
      );
    expect(records.map((r) => r.status).sort()).toEqual(["failed", "replaced"]);
  });

  test("background results: every one delivered exactly once across concurrent takers", async () => {
    const p = project({
      callbacks: [{ name: "bg", pattern: "*.ts", run: "exit 1", blocking: false, per: "file" }],
    });
    const n = 6;
    const starts = await Promise.all(
      Array.from({ length: n }, (_, i) => p.hookAsync(postWrite(p.path(`f${i}.ts`), `toolu_${i}`))),
    );
    // Under load a result can already come with a later start (a failure then makes it a
    // block with a reason): read each start's id from its own announcement, and count
    // deliveries over every hook answer.
    const said = (json: unknown): string =>
      (json as { reason?: string } | null)?.reason ?? contextOf(json);
    const ids = starts.map(
      (s) => /started in background on f\d+\.ts, run ([a-z0-9]+-[a-f0-9]+)/.exec(said(s.json))?.[1],
    );
    expect(new Set(ids).size).toBe(n);
    for (const id of ids) await waitFor(() => existsSync(p.path(`.cpilot/runs/${id}.json`)));
    const deliveredEarly = starts.flatMap((t) =>
      [...said(t.json).matchAll(/background run ([a-z0-9]+-[a-f0-9]+)/g)].map((m) => m[1]),
    );
    // The run record can land before the result is posted: the inbox may not exist yet.
    const waiting = (): number => {
      try {
        return readdirSync(p.path(".cpilot/inbox/s1")).filter((f) => f.endsWith(".json")).length;
      } catch {
        return 0;
      }
    };
    await waitFor(() => waiting() === n - deliveredEarly.length);
    const takers = await Promise.all(
      Array.from({ length: 4 }, () =>
        p.hookAsync({ hook_event_name: "UserPromptSubmit", prompt: "x" }),
      ),
    );
    const delivered = [
      ...deliveredEarly,
      ...takers.flatMap((t) =>
        [...said(t.json).matchAll(/background run ([a-z0-9]+-[a-f0-9]+)/g)].map((m) => m[1]),
      ),
    ];
    expect(delivered.sort()).toEqual([...ids].sort());
  });
});

async function waitFor(check: () => boolean, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await Bun.sleep(25);
  }
}

void CLAUDE_ENV;
