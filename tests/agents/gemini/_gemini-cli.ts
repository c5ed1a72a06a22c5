/** Run the pinned real Gemini CLI (node_modules/.bin/gemini, 0.61.0) offline against a fake API. */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { nodeBin, offlineEnv, tempHome } from "../../support/agent-cli.ts";
import { type CliRun, runCli } from "../../support/run-cli.ts";

export const GEMINI_BIN = nodeBin("gemini");

/**
 * `gemini -p <prompt> --yolo -m gemini-2.5-pro -o json` in `cwd`, with a temp HOME whose
 * settings pick API-key auth and turn off telemetry, usage statistics and update checks.
 * GOOGLE_GEMINI_BASE_URL points at the fake; HTTP(S)_PROXY too, so a request for any
 * other host reaches the fake as an escape instead of the network; no packet leaves the
 * machine (a network namespace that reaches only the fake, netns.ts).
 */
export async function runGemini(options: {
  cwd: string;
  prompt: string;
  apiUrl: string;
  timeoutMs?: number;
  /** Start it through this, e.g. `[cpilot, "run", "--"]`. */
  via?: string[];
  /** Variables over the offline environment (a PATH without cpilot). */
  env?: Record<string, string>;
  /** Keep Gemini's folder trust on (its default), instead of turning it off for the run. */
  folderTrust?: boolean;
}): Promise<CliRun> {
  const home = tempHome("gemini");
  mkdirSync(join(home, ".gemini"), { recursive: true });
  writeFileSync(
    join(home, ".gemini", "settings.json"),
    JSON.stringify({
      security: {
        auth: { selectedType: "gemini-api-key" },
        ...(options.folderTrust ? {} : { folderTrust: { enabled: false } }),
      },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      general: { disableAutoUpdate: true, disableUpdateNag: true },
    }),
  );
  const geminiArgs = ["-p", options.prompt, "--yolo", "-m", "gemini-2.5-pro", "-o", "json"];
  try {
    return await runCli([...(options.via ?? []), GEMINI_BIN, ...geminiArgs], {
      cwd: options.cwd,
      offlineTo: options.apiUrl,
      timeoutMs: options.timeoutMs ?? 60_000,
      env: offlineEnv(home, options.apiUrl, {
        GEMINI_API_KEY: "dummy-key",
        GOOGLE_GEMINI_BASE_URL: options.apiUrl,
        GEMINI_CLI_NO_RELAUNCH: "true",
        ...options.env,
      }),
    });
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
