/**
 * OpenCode headless (`opencode run`) on the fake Chat Completions API, configured for the
 * run in OPENCODE_CONFIG_CONTENT over the person's config. Its plugin package install is
 * pointed at cpilot's server too, which answers 404 (OpenCode runs on without it).
 */
import { spawnSync } from "node:child_process";
import { type LiveDriver, proxyTo } from "../../proof/live-driver.ts";
import { assistantTurns, messagesAfter, openaiChat } from "../../proof/model/openai-chat.ts";
import { stringsIn } from "../../proof/model/server.ts";

const DROPPED =
  /^(OPENCODE_CONFIG_CONTENT$|OPENCODE_DISABLE_|npm_config_registry$|BUN_CONFIG_REGISTRY$|AI_AGENT$)|_PROXY$/i;

export const opencodeDriver: LiveDriver = {
  shape: openaiChat("write", "filePath", "content"),
  version(bin, env) {
    const r = spawnSync(bin, ["--version"], { env, encoding: "utf8", timeout: 30_000 });
    return r.status === 0 ? (r.stdout.trim().split("\n").at(-1) ?? null) : null;
  },
  run({ prompt, modelUrl, env }) {
    const kept = Object.fromEntries(Object.entries(env).filter(([k]) => !DROPPED.test(k)));
    const config = {
      autoupdate: false,
      share: "disabled",
      provider: {
        "cpilot-proof": {
          name: "cpilot-proof",
          options: { baseURL: `${modelUrl}/v1`, apiKey: "cpilot-proof-offline-key" },
          models: { m: { name: "m" } },
        },
      },
      model: "cpilot-proof/m",
    };
    return {
      args: ["run", prompt],
      env: {
        ...kept,
        OPENCODE_CONFIG_CONTENT: JSON.stringify(config),
        OPENCODE_DISABLE_MODELS_FETCH: "1",
        OPENCODE_DISABLE_DEFAULT_PLUGINS: "1",
        OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
        OPENCODE_DISABLE_AUTOUPDATE: "1",
        OPENCODE_DISABLE_SHARE: "1",
        npm_config_registry: `${modelUrl}/npm/`,
        NPM_CONFIG_REGISTRY: `${modelUrl}/npm/`,
        BUN_CONFIG_REGISTRY: `${modelUrl}/npm/`,
        ...proxyTo(modelUrl),
      },
    };
  },
  receivedAfter(requests, turn) {
    const asked = requests.filter((r) => r.kind === "turn" && assistantTurns(r.body) > turn);
    const last = asked.at(-1);
    return last === undefined ? null : stringsIn(messagesAfter(last.body, turn));
  },
};
