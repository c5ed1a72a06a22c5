// Attacks on how cpilot loads a config that runs code, through the compiled binary: the
// child that loads it must not outlive a SIGKILLed parent, and no command hangs on a config
// that loops (issue 16, items 3 and 7).
import { afterEach, expect, test } from "bun:test";
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cpilotBinary, runtimeEnv } from "../helpers/binary.ts";
import { processAlive, tempDir, waitFor } from "../helpers/tmp.ts";

const started: ChildProcess[] = [];
const loaders: number[] = [];
afterEach(() => {
  for (const child of started.splice(0)) child.kill("SIGKILL");
  for (const pid of loaders.splice(0)) {
    try {
      process.kill(pid, "SIGKILL");
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
  loaders.push(...pids);
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
