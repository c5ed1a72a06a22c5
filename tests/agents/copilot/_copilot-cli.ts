/**
 * Run the pinned real GitHub Copilot CLI (node_modules/.bin/copilot, 1.0.102) offline:
 * COPILOT_OFFLINE=true with COPILOT_PROVIDER_BASE_URL at a fake Chat Completions API on
 * 127.0.0.1, a temp COPILOT_HOME (no folder trusted yet), and the fake as HTTP(S) proxy
 * (escapes are recorded).
 */
import { cliLauncher, nodeBin, offlineEnv } from "../../support/agent-cli.ts";

export const COPILOT_VERSION = "1.0.102";

export const copilotEnv = (home: string, apiUrl: string) =>
  offlineEnv(home, apiUrl, {
    COPILOT_HOME: home,
    COPILOT_OFFLINE: "true",
    COPILOT_PROVIDER_BASE_URL: `${apiUrl}/v1`,
    COPILOT_PROVIDER_API_KEY: "dummy",
    COPILOT_MODEL: "gpt-4.1",
    COPILOT_AUTO_UPDATE: "false",
  });

/** `copilot -p <prompt> --allow-all-tools`. */
export const copilotCli = cliLauncher({
  agent: "copilot",
  bin: nodeBin("copilot"),
  args: (prompt) => ["-p", prompt, "--allow-all-tools"],
  env: copilotEnv,
});
