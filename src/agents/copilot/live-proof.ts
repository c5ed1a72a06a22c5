/**
 * Copilot CLI headless (`copilot -p --allow-all-tools`) on the fake Chat Completions API
 * through its offline mode: no GitHub sign-in. The throwaway project is trusted for the run
 * exactly when Copilot trusts the person's project.
 */
import { spawnSync } from "node:child_process";
import { type LiveDriver, proxyTo } from "../../proof/live-driver.ts";
import { assistantTurns, messagesAfter, openaiChat } from "../../proof/model/openai-chat.ts";
import { stringsIn } from "../../proof/model/server.ts";
import { copilotConfigPath, copilotTrusts } from "./folder-trust.ts";

const DROPPED =
  /^(COPILOT_(OFFLINE|PROVIDER_|MODEL|ALLOW_ALL|AUTO_UPDATE)|GH_TOKEN$|GITHUB_TOKEN$|AI_AGENT$)|_PROXY$/i;

export const copilotDriver: LiveDriver = {
  shape: openaiChat("create", "path", "file_text"),
  version(bin, env) {
    const r = spawnSync(bin, ["--version"], { env, encoding: "utf8", timeout: 30_000 });
    const line = r.status === 0 ? (r.stdout.trim().split("\n")[0] ?? "") : "";
    return /(\d+\.\d+\.\d+)/.exec(line)?.[1] ?? (line || null);
  },
  run({ prompt, root, modelUrl, env }) {
    const kept = Object.fromEntries(Object.entries(env).filter(([k]) => !DROPPED.test(k)));
    return {
      args: ["-p", prompt, "--allow-all-tools"],
      env: {
        ...kept,
        COPILOT_OFFLINE: "true",
        COPILOT_PROVIDER_BASE_URL: `${modelUrl}/v1`,
        COPILOT_PROVIDER_API_KEY: "cpilot-proof-offline-key",
        COPILOT_MODEL: "gpt-4.1",
        COPILOT_AUTO_UPDATE: "false",
        ...proxyTo(modelUrl),
        ...(copilotTrusts(root, env) === true ? { COPILOT_ALLOW_ALL: "true" } : {}),
      },
    };
  },
  receivedAfter(requests, turn) {
    const asked = requests.filter((r) => r.kind === "turn" && assistantTurns(r.body) > turn);
    const last = asked.at(-1);
    return last === undefined ? null : stringsIn(messagesAfter(last.body, turn));
  },
  untrusted(root, _home, env) {
    return copilotTrusts(root, env) === true
      ? []
      : [
          `Copilot CLI does not trust ${root} (${copilotConfigPath(env)} trustedFolders): it loads no project hooks there; run \`cpilot install copilot --trust-project\``,
        ];
  },
};
