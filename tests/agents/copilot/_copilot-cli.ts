/**
 * Run the pinned real GitHub Copilot CLI (node_modules/.bin/copilot, 1.0.102) offline:
 * COPILOT_OFFLINE=true with COPILOT_PROVIDER_BASE_URL at a fake Chat Completions API on
 * 127.0.0.1, a temp COPILOT_HOME, and the fake as HTTP(S) proxy (escapes are recorded).
 */
import { mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathWithCpilot, runtimeEnv } from "../../helpers/binary.ts";
import { type CliRun, runCli } from "../../support/run-cli.ts";

export const COPILOT_BIN = join(
  import.meta.dir,
  "..",
  "..",
  "..",
  "node_modules",
  ".bin",
  "copilot",
);
export const COPILOT_VERSION = "1.0.102";

/** A fresh COPILOT_HOME (no folder trusted yet). */
export function copilotHome(): string {
  return realpathSync(mkdtempSync(join(tmpdir(), "cpilot-copilot-home-")));
}

export function copilotEnv(home: string, apiUrl: string): Record<string, string> {
  return {
    PATH: pathWithCpilot(process.env.PATH ?? "/usr/bin:/bin"),
    HOME: home,
    COPILOT_HOME: home,
    COPILOT_OFFLINE: "true",
    COPILOT_PROVIDER_BASE_URL: `${apiUrl}/v1`,
    COPILOT_PROVIDER_API_KEY: "dummy",
    COPILOT_MODEL: "gpt-4.1",
    COPILOT_AUTO_UPDATE: "false",
    HTTPS_PROXY: apiUrl,
    HTTP_PROXY: apiUrl,
    NO_PROXY: "127.0.0.1,localhost",
    ...runtimeEnv(),
  };
}

/** `copilot -p <prompt> --allow-all-tools` in `cwd`, maybe through `via`. */
export function runCopilot(options: {
  cwd: string;
  prompt: string;
  home: string;
  apiUrl: string;
  via?: string[];
}): Promise<CliRun> {
  return runCli([...(options.via ?? []), COPILOT_BIN, "-p", options.prompt, "--allow-all-tools"], {
    cwd: options.cwd,
    offlineTo: options.apiUrl,
    env: copilotEnv(options.home, options.apiUrl),
  });
}
