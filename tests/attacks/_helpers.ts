/** Shared by the attack suites: projects for the compiled binary, run in parallel. */
import { type ChildProcess, spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { runAsync } from "../agents/claude/_helpers.ts";
import { cpilotBinary, runtimeEnv } from "../helpers/binary.ts";
import { tempDir, writeFiles } from "../helpers/tmp.ts";

/** A git project whose callbacks.config.json holds `callbacks`, with `files` written. */
export function attackProject(callbacks: unknown[], files: Record<string, string> = {}): string {
  const dir = tempDir("cpilot-attack-", { git: true });
  writeFileSync(join(dir, "callbacks.config.json"), JSON.stringify({ callbacks }, null, 2));
  writeFiles(dir, files);
  return dir;
}

/** `cpilot ARGS` in `dir` as a child of its own (many run at once). */
export function run(dir: string, args: string[], input = "", env: Record<string, string> = {}) {
  return runAsync(args, dir, env, input);
}

/** `cpilot ARGS` in `dir`, its output ignored: for a test that kills it. */
export function spawnBinary(
  dir: string,
  args: string[],
  env: Record<string, string> = {},
): ChildProcess {
  return spawn(cpilotBinary(), args, {
    cwd: dir,
    env: {
      PATH: "/usr/local/bin:/usr/bin:/bin",
      HOME: process.env.HOME ?? "/root",
      ...runtimeEnv(),
      ...env,
    },
    stdio: "ignore",
  });
}
