/**
 * Background results that arrive after the agent stopped: cpilot's Stop hook runs a second
 * time in the background (`asyncRewake`, `cpilot hook claude --rewake`), waits for the
 * session's background callbacks, and wakes the model with a failure (exit 2) instead of
 * leaving it for the next prompt.
 */
import { afterEach, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { RUN_MARKER } from "../../support/_leftovers.ts";
import { runClaude } from "../../support/claude-cli.ts";
import { startFakeAnthropic, type Turn, textOf } from "../../support/fake-anthropic.ts";
import { makeTempProject } from "../../support/temp-project.ts";
import { CLAUDE_ENV, cpilot, makeProject, type Project, postWrite, runAsync } from "./_helpers.ts";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A background check that cannot finish before `marker` exists, then fails. */
const slow = (marker: string) => ({
  name: "slow",
  pattern: "*.ts",
  run: `until [ -e ${marker} ]; do sleep 0.05; done; echo "slow: 2 tests failed" >&2; exit 1`,
  blocking: false,
  per: "file",
  timeout: 60,
});

test("the background Stop hook waits for the session's background runs and hands over their failure with exit 2", async () => {
  const p: Project = makeProject({ callbacks: [slow("go")] }, { "a.ts": "x\n" });
  cleanups.push(() => p.remove());
  const started = p.hook(postWrite(p.path("a.ts")));
  expect(started.stdout).toContain("'slow' started in background");
  const stop = JSON.stringify({ hook_event_name: "Stop", session_id: "s1", cwd: p.dir });
  const rewake = runAsync(["hook", "claude", "--rewake"], p.dir, CLAUDE_ENV, stop);
  // The run cannot report before this: a rewake that did not wait would have said nothing.
  writeFileSync(p.path("go"), "");
  const woke = await rewake;
  expect(woke.code).toBe(2);
  expect(woke.stdout).toBe("");
  expect(woke.stderr).toContain(
    "cpilot: background checks finished after you stopped, and failed:",
  );
  expect(woke.stderr).toContain("'slow' (background run");
  expect(woke.stderr).toContain("failed on a.ts");
  expect(woke.stderr).toContain("slow: 2 tests failed");
  // Delivered once: nothing waits any more, and a second rewake says nothing at once.
  const again = await runAsync(["hook", "claude", "--rewake"], p.dir, CLAUDE_ENV, stop);
  expect(again.code).toBe(0);
  expect(again.stderr).toBe("");
  const prompt = p.hook({ hook_event_name: "UserPromptSubmit", prompt: "next" });
  expect(prompt.stdout).not.toContain("failed on a.ts");
  expect(readdirSync(join(p.dir, ".cpilot", "background"))).toEqual([]);
});

test("with nothing in the background, or nothing failing, the hook ends silent", async () => {
  const p: Project = makeProject(
    { callbacks: [{ name: "fine", pattern: "*.ts", run: "true", blocking: false, per: "file" }] },
    { "a.ts": "x\n" },
  );
  cleanups.push(() => p.remove());
  const stop = JSON.stringify({ hook_event_name: "Stop", session_id: "s1", cwd: p.dir });
  const idle = await runAsync(["hook", "claude", "--rewake"], p.dir, CLAUDE_ENV, stop);
  expect(idle.code).toBe(0);
  expect(idle.stderr).toBe("");
  p.hook(postWrite(p.path("a.ts")));
  const quiet = await runAsync(["hook", "claude", "--rewake"], p.dir, CLAUDE_ENV, stop);
  expect(quiet.code).toBe(0);
  expect(quiet.stderr).toBe("");
});

/**
 * A Stop hook that touches `marker` once cpilot's Stop hook of this run (a process carrying
 * this run's RUN_MARKER whose command ends in `hook claude`) has been seen and is gone; if
 * it was gone before it could be seen, after ten seconds of not seeing it.
 */
function afterCpilotStop(marker: string): string {
  return `cat >/dev/null
[ -e ${marker} ] && exit 0
stop_running() {
  for pid in $(pgrep -f 'hook claude$'); do
    tr '\\0' '\\n' < "/proc/$pid/environ" 2>/dev/null | grep -qx "${RUN_MARKER}=$${RUN_MARKER}" && return 0
  done
  return 1
}
for i in $(seq 200); do stop_running && break; sleep 0.05; done
while stop_running; do sleep 0.05; done
touch ${marker}`;
}

test("with the real CLI, a background failure that arrives after the stop wakes the model", async () => {
  const project = await makeTempProject();
  const say = (text: string): Turn => [{ type: "text", text }];
  const api = await startFakeAnthropic([
    [
      {
        type: "tool_use",
        name: "Write",
        input: { file_path: project.path("a.ts"), content: "x\n" },
      },
    ],
    say("done"),
    say("I will look at the failing tests"),
  ]);
  cleanups.push(
    () => api.close(),
    () => project.remove(),
  );
  // The check reports only once the agent has stopped and cpilot's own Stop hook has
  // answered (this test's Stop hook says so): only the background Stop hook can deliver it.
  await project.write("callbacks.config.json", JSON.stringify({ callbacks: [slow("stopped")] }));
  const installed = cpilot(["install", "claude", "--local"], { cwd: project.dir });
  if (installed.code !== 0) throw new Error(`install failed: ${installed.stderr}`);
  const touch = await project.hook("stopped.sh", afterCpilotStop(project.path("stopped")));
  const run = await runClaude({
    cwd: project.dir,
    apiUrl: api.url,
    prompt: "write a.ts",
    settings: { hooks: { Stop: [{ hooks: [{ type: "command", command: touch }] }] } },
  });
  expect(run.exitCode).toBe(0);
  expect(api.escapes()).toEqual([]);
  expect(existsSync(project.path("stopped"))).toBe(true);
  const turns = api.turns();
  expect(turns).toHaveLength(3);
  const woke = textOf(turns[2]!);
  expect(woke).toContain("Stop hook feedback");
  expect(woke).toContain("cpilot: background checks finished after you stopped, and failed:");
  expect(woke).toContain("'slow' (background run");
  expect(woke).toContain("slow: 2 tests failed");
}, 90_000);

test("a FIFO planted among the background specs is not read: the hook ends at once", async () => {
  const p: Project = makeProject({ callbacks: [slow("go")] }, { "a.ts": "x\n" });
  cleanups.push(() => p.remove());
  mkdirSync(join(p.dir, ".cpilot", "background"), { recursive: true });
  execFileSync("mkfifo", [join(p.dir, ".cpilot", "background", "planted.json")]);
  const stop = JSON.stringify({ hook_event_name: "Stop", session_id: "s1", cwd: p.dir });
  const idle = await runAsync(["hook", "claude", "--rewake"], p.dir, CLAUDE_ENV, stop);
  expect(idle.code).toBe(0);
  expect(idle.stderr).toBe("");
}, 20_000);
