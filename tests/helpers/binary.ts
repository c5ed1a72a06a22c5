import { spawnSync } from "node:child_process";
import { existsSync, statSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "./tmp.ts";

const REPO = join(import.meta.dir, "..", "..");
/** The binary under test: dist/cpilot, or another build named by CPILOT_TEST_BIN (to run a suite against another branch's build). */
export const BINARY = process.env.CPILOT_TEST_BIN || join(REPO, "dist", "cpilot");

let built = false;

let runtimeDir: string | undefined;

/**
 * Env every cpilot a test starts gets: a private runtime folder of this test run (cached
 * config values), removed after the run, so tests never touch the developer's own.
 */
export function runtimeEnv(): Record<string, string> {
  runtimeDir ??= tempDir("cpilot-run-");
  // No session-start background check (agent-session/base-check.ts) unless a test asks:
  // it would add runs to the projects of tests that count them.
  return { CPILOT_BASE_CHECK: "0", CPILOT_RUNTIME_DIR: runtimeDir };
}

/** The compiled binary; built once per test run when missing (CI builds it before tests). */
export function cpilotBinary(): string {
  if (!built && !process.env.CPILOT_TEST_BIN && !existsSync(BINARY)) {
    const r = spawnSync(process.execPath, [join(REPO, "scripts", "build.ts")], {
      cwd: REPO,
      stdio: "inherit",
    });
    if (r.status !== 0) throw new Error("building dist/cpilot failed");
  }
  built = true;
  if (!statSync(BINARY).isFile()) throw new Error(`${BINARY} is not a file`);
  return BINARY;
}

export interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Run the binary with a clean environment: no bun on PATH, no node_modules in sight. */
export function cpilot(
  args: string[],
  options: { cwd: string; env?: Record<string, string>; input?: string; timeoutMs?: number },
): Result {
  const r = spawnSync(cpilotBinary(), args, {
    cwd: options.cwd,
    env: {
      PATH: "/usr/local/bin:/usr/bin:/bin",
      HOME: process.env.HOME ?? "/root",
      ...runtimeEnv(),
      ...options.env,
    },
    input: options.input ?? "",
    encoding: "utf8",
    timeout: options.timeoutMs ?? 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

let cpilotPathDir: string | undefined;

/** A PATH with `cpilot` on it (a link to the built binary), as on a machine that installed it. */
export function pathWithCpilot(rest = "/usr/local/bin:/usr/bin:/bin"): string {
  if (cpilotPathDir === undefined || !existsSync(join(cpilotPathDir, "cpilot"))) {
    cpilotPathDir = tempDir("cpilot-path-");
    symlinkSync(cpilotBinary(), join(cpilotPathDir, "cpilot"));
  }
  return `${cpilotPathDir}:${rest}`;
}
