import { spawn } from "node:child_process";
import { join } from "node:path";
import { runtimeEnv } from "../helpers/binary.ts";

const REPO = join(import.meta.dir, "..", "..");
const BUN = join(REPO, "node_modules", ".bin", "bun");

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Run `bun main.ts add …` as a real process in `cwd`: a clean environment (no real API
 * key can leak in), no controlling terminal (a new session), stdin open and silent so a
 * prompt that read stdin would hang and fail the test.
 */
export function runAdd(
  args: string[],
  options: { cwd: string; env?: Record<string, string>; timeoutMs?: number },
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(BUN, [join(REPO, "main.ts"), "add", ...args], {
      cwd: options.cwd,
      env: {
        PATH: "/usr/local/bin:/usr/bin:/bin",
        HOME: options.cwd,
        NO_COLOR: "1",
        ...runtimeEnv(),
        ...options.env,
      },
      stdio: ["pipe", "pipe", "pipe"],
      detached: true,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => {
      stdout += c.toString();
    });
    child.stderr.on("data", (c: Buffer) => {
      stderr += c.toString();
    });
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // already gone
      }
      reject(new Error(`cpilot add timed out\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, options.timeoutMs ?? 20_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      child.stdin.end();
      resolve({ code, stdout, stderr });
    });
  });
}
