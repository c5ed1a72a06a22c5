/** Run the pinned real Gemini CLI (node_modules/.bin/gemini, 0.61.0) offline against a fake API. */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathWithCpilot, runtimeEnv } from "../../helpers/binary.ts";
import { isolate } from "../../support/netns.ts";

export const GEMINI_BIN = join(import.meta.dir, "..", "..", "..", "node_modules", ".bin", "gemini");

export interface GeminiRun {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/**
 * `gemini -p <prompt> --yolo -m gemini-2.5-pro -o json` in `cwd`, with a temp HOME whose
 * settings pick API-key auth and turn off telemetry, usage statistics and update checks.
 * GOOGLE_GEMINI_BASE_URL points at the fake; HTTP(S)_PROXY too, so a request for any
 * other host reaches the fake as an escape instead of the network.
 */
export async function runGemini(options: {
  cwd: string;
  prompt: string;
  apiUrl: string;
  timeoutMs?: number;
  /** Start it through this, e.g. `[cpilot, "run", "--"]`. */
  via?: string[];
}): Promise<GeminiRun> {
  const home = realpathSync(mkdtempSync(join(tmpdir(), "cpilot-gemini-home-")));
  mkdirSync(join(home, ".gemini"), { recursive: true });
  writeFileSync(
    join(home, ".gemini", "settings.json"),
    JSON.stringify({
      security: { auth: { selectedType: "gemini-api-key" }, folderTrust: { enabled: false } },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      general: { disableAutoUpdate: true, disableUpdateNag: true },
    }),
  );
  const started = Date.now();
  const geminiArgs = ["-p", options.prompt, "--yolo", "-m", "gemini-2.5-pro", "-o", "json"];
  const argv = [...(options.via ?? []), GEMINI_BIN, ...geminiArgs];
  // no packet leaves the machine: a network namespace that reaches only the fake (netns.ts)
  const isolation = await isolate(argv, Number(new URL(options.apiUrl).port));
  try {
    return await new Promise<GeminiRun>((resolve) => {
      const [cmd, ...args] = (isolation?.argv ?? argv) as [string, ...string[]];
      const child = spawn(cmd, args, {
        cwd: options.cwd,
        stdio: ["ignore", "pipe", "pipe"],
        env: {
          // The shared .gemini/settings.json names `cpilot`: on PATH, as for a teammate.
          PATH: pathWithCpilot(process.env.PATH ?? "/usr/bin:/bin"),
          HOME: home,
          GEMINI_API_KEY: "dummy-key",
          GOOGLE_GEMINI_BASE_URL: options.apiUrl,
          HTTPS_PROXY: options.apiUrl,
          HTTP_PROXY: options.apiUrl,
          NO_PROXY: "127.0.0.1,localhost",
          GEMINI_CLI_NO_RELAUNCH: "true",
          ...runtimeEnv(),
        },
      });
      let stdout = "";
      let stderr = "";
      child.stdout.setEncoding("utf8").on("data", (d: string) => {
        stdout += d;
      });
      child.stderr.setEncoding("utf8").on("data", (d: string) => {
        stderr += d;
      });
      const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 60_000);
      child.on("close", (code) => {
        clearTimeout(timer);
        resolve({ code, stdout, stderr, ms: Date.now() - started });
      });
    });
  } finally {
    isolation?.close();
    rmSync(home, { recursive: true, force: true });
  }
}
