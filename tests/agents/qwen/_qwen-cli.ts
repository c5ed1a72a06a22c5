/**
 * Run the pinned real Qwen Code (node_modules/.bin/qwen, 0.24.4) offline under this
 * machine's node 20 (it asks for node 22 but runs): OpenAI-compatible settings at a fake
 * Chat Completions API on 127.0.0.1, a temp HOME with telemetry and usage statistics off,
 * and the fake as HTTP(S) proxy (escapes are recorded).
 */
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathWithCpilot, runtimeEnv } from "../../helpers/binary.ts";
import { type CliRun, runCli } from "../../support/run-cli.ts";

export const QWEN_BIN = join(import.meta.dir, "..", "..", "..", "node_modules", ".bin", "qwen");
export const QWEN_VERSION = "0.24.4";

export function qwenHome(): string {
  const home = realpathSync(mkdtempSync(join(tmpdir(), "cpilot-qwen-home-")));
  mkdirSync(join(home, ".qwen"), { recursive: true });
  writeFileSync(
    join(home, ".qwen", "settings.json"),
    JSON.stringify({
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      general: { disableAutoUpdate: true, disableUpdateNag: true },
    }),
  );
  return home;
}

export function qwenEnv(home: string, apiUrl: string): Record<string, string> {
  return {
    PATH: pathWithCpilot(process.env.PATH ?? "/usr/bin:/bin"),
    HOME: home,
    OPENAI_API_KEY: "dummy",
    OPENAI_BASE_URL: `${apiUrl}/v1`,
    OPENAI_MODEL: "gpt-4.1",
    QWEN_CODE_SUPPRESS_YOLO_WARNING: "1",
    HTTPS_PROXY: apiUrl,
    HTTP_PROXY: apiUrl,
    NO_PROXY: "127.0.0.1,localhost",
    ...runtimeEnv(),
  };
}

/** `qwen -p <prompt> --yolo` in `cwd`, maybe through `via`. */
export function runQwen(options: {
  cwd: string;
  prompt: string;
  home: string;
  apiUrl: string;
  via?: string[];
}): Promise<CliRun> {
  return runCli([...(options.via ?? []), QWEN_BIN, "-p", options.prompt, "--yolo"], {
    cwd: options.cwd,
    offlineTo: options.apiUrl,
    env: qwenEnv(options.home, options.apiUrl),
  });
}
