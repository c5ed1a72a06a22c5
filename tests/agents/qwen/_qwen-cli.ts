/**
 * Run the pinned real Qwen Code (node_modules/.bin/qwen, 0.24.4) offline under this
 * machine's node 20 (it asks for node 22 but runs): OpenAI-compatible settings at a fake
 * Chat Completions API on 127.0.0.1, a temp HOME with telemetry and usage statistics off,
 * and the fake as HTTP(S) proxy (escapes are recorded).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cliLauncher, nodeBin, offlineEnv, tempHome } from "../../support/agent-cli.ts";

export const QWEN_VERSION = "0.24.4";

function qwenHome(): string {
  const home = tempHome("qwen");
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

/** `qwen -p <prompt> --yolo`. */
export const qwenCli = cliLauncher({
  agent: "qwen",
  bin: nodeBin("qwen"),
  args: (prompt) => ["-p", prompt, "--yolo"],
  home: qwenHome,
  env: (home, apiUrl) =>
    offlineEnv(home, apiUrl, {
      OPENAI_API_KEY: "dummy",
      OPENAI_BASE_URL: `${apiUrl}/v1`,
      OPENAI_MODEL: "gpt-4.1",
      QWEN_CODE_SUPPRESS_YOLO_WARNING: "1",
    }),
});
