// Attacks on how cpilot loads a config that runs code, through the compiled binary: the
// child that loads it must not outlive a SIGKILLed parent, and no command hangs on a config
// that loops (issue 16, items 3 and 7).
import { afterEach, expect, test } from "bun:test";
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync, readlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cpilotBinary, runtimeEnv } from "../helpers/binary.ts";
import { processAlive, tempDir, waitFor } from "../helpers/tmp.ts";

const started: ChildProcess[] = [];
/** Processes that loaded a test's config, with the project folder they run in. */
const loaders: [number, string][] = [];
afterEach(() => {
  for (const child of started.splice(0)) child.kill("SIGKILL");
  for (const [pid, dir] of loaders.splice(0)) {
    try {
      // only a loader still there, never a process that got its pid since
      if (readlinkSync(`/proc/${pid}/cwd`) === dir) process.kill(pid, "SIGKILL");
    } catch {
      // gone, as it should be
    }
  }
});

/** A project whose callbacks.config.ts records the pid of each process loading it, then loops. */
function loopingProject(): string {
  const dir = tempDir("cpilot-attack-", { git: true });
  writeFileSync(
    join(dir, "callbacks.config.ts"),
    `import { appendFileSync } from "node:fs";
appendFileSync(${JSON.stringify(join(dir, "loaders"))}, process.pid + "\\n");
while (true) {}
export default { callbacks: [] };
`,
  );
  writeFileSync(join(dir, "a.txt"), "a\n");
  return dir;
}

function loaderPids(dir: string): number[] {
  const file = join(dir, "loaders");
  if (!existsSync(file)) return [];
  const pids = readFileSync(file, "utf8").trim().split("\n").filter(Boolean).map(Number);
  loaders.push(...pids.map((pid): [number, string] => [pid, dir]));
  return pids;
}

function start(
  dir: string,
  args: string[],
  input: string | null,
  env: Record<string, string> = {},
) {
  const child = spawn(cpilotBinary(), args, {
    cwd: dir,
    env: {
      PATH: "/usr/local/bin:/usr/bin:/bin",
      HOME: dir,
      ...runtimeEnv(),
      ...env,
    },
    stdio: [input === null ? "ignore" : "pipe", "pipe", "pipe"],
  });
  started.push(child);
  if (input !== null) child.stdin?.end(input);
  let out = "";
  child.stdout?.on("data", (d) => {
    out += String(d);
  });
  child.stderr?.on("data", (d) => {
    out += String(d);
  });
  const exited = new Promise<{ code: number | null; output: string }>((resolve) =>
    child.on("exit", (code) => resolve({ code, output: out })),
  );
  return { child, exited };
}

function preWrite(dir: string): string {
  return JSON.stringify({
    session_id: "attack",
    cwd: dir,
    hook_event_name: "PreToolUse",
    tool_name: "Write",
    tool_input: { file_path: join(dir, ".git/hooks/pre-commit"), content: "x" },
  });
}

/** Far off: only the parent's death can end the loading child within the test. */
const NO_DEADLINE = { CPILOT_CONFIG_LOAD_TIMEOUT_MS: "600000" };

for (const [what, args, input] of [
  ["hook claude", ["hook", "claude"], "pre-write"],
  ["check", ["check", "a.txt"], null],
] as const) {
  test.skipIf(process.platform !== "linux")(
    `the child loading a looping config dies with a SIGKILLed \`cpilot ${what}\``,
    async () => {
      const dir = loopingProject();
      const { child, exited } = start(
        dir,
        [...args],
        input === null ? null : preWrite(dir),
        NO_DEADLINE,
      );
      expect(await waitFor(() => loaderPids(dir).length > 0, 30_000)).toBe(true);
      child.kill("SIGKILL");
      await exited;
      const [loader] = loaderPids(dir);
      expect(await waitFor(() => !processAlive(loader as number), 20_000)).toBe(true);
    },
    90_000,
  );
}

/** Every command gives up on a looping config after this (the child is stopped). */
const SHORT_DEADLINE = { CPILOT_CONFIG_LOAD_TIMEOUT_MS: "2000" };

for (const [what, args] of [
  ["install claude", ["install", "claude"]],
  ["doctor", ["doctor"]],
  ["add", ["add", "run true on txt files", "--offline", "--yes"]],
  ["run -- (the watcher)", ["run", "--", "true"]],
] as const) {
  test(`\`cpilot ${what}\` ends on a config that loops, saying it did not load`, async () => {
    const dir = loopingProject();
    const { exited } = start(dir, [...args], null, SHORT_DEADLINE);
    // Far past the deadline on a busy machine; a command that loads the config on its own
    // thread never ends, and the test fails here.
    const ended = await Promise.race([exited, new Promise((r) => setTimeout(r, 60_000))]);
    expect(ended).toBeDefined();
    expect((ended as { output: string }).output).toContain("did not finish loading within 2 s");
    // SIGKILL was sent before the command ended; on a busy machine the loader may take a
    // moment more to die, which is no leak (a leak stays alive: the wait times out).
    for (const pid of loaderPids(dir)) {
      expect(await waitFor(() => !processAlive(pid), 20_000)).toBe(true);
    }
  }, 90_000);
}

test("a background run whose config loops on its own load ends within the load deadline", async () => {
  const dir = tempDir("cpilot-attack-", { git: true });
  const loads = join(dir, "loads");
  // The hook call's own load goes through; the background process's load (the second) loops.
  writeFileSync(
    join(dir, "callbacks.config.ts"),
    `import { appendFileSync, existsSync, readFileSync } from "node:fs";
const before = existsSync(${JSON.stringify(loads)}) ? readFileSync(${JSON.stringify(loads)}, "utf8").split("\\n").length - 1 : 0;
appendFileSync(${JSON.stringify(loads)}, process.pid + " " + process.ppid + "\\n");
if (before >= 1) while (true) {}
export default { callbacks: [{ name: "bg", pattern: "*.txt", run: "true", blocking: false }] };
`,
  );
  writeFileSync(join(dir, "a.txt"), "a\n");
  const { exited } = start(
    dir,
    ["hook", "claude"],
    JSON.stringify({
      session_id: "attack",
      cwd: dir,
      hook_event_name: "PostToolUse",
      tool_name: "Write",
      tool_input: { file_path: join(dir, "a.txt"), content: "a" },
      tool_response: { type: "update", filePath: join(dir, "a.txt") },
      tool_use_id: "toolu_1",
    }),
    SHORT_DEADLINE,
  );
  expect((await exited).code).toBe(0);
  const second = () =>
    existsSync(loads) ? readFileSync(loads, "utf8").trim().split("\n")[1] : undefined;
  expect(await waitFor(() => second() !== undefined, 30_000)).toBe(true);
  const pids = (second() as string).split(" ").map(Number);
  loaders.push(...pids.map((pid): [number, string] => [pid, dir]));
  // The loading process and the background process that waits on it both end.
  for (const pid of pids) expect(await waitFor(() => !processAlive(pid), 30_000)).toBe(true);
}, 90_000);
