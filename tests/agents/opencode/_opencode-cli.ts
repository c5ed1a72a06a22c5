/**
 * Run the pinned real OpenCode (node_modules/.bin/opencode, 1.18.33) offline: its config
 * (OPENCODE_CONFIG_CONTENT) names one OpenAI-compatible provider at a fake Chat Completions
 * API on 127.0.0.1; the model catalog fetch, default plugins, LSP downloads, sharing and
 * updates are off; its package installs ask the fake as registry (and fail there, which
 * OpenCode shrugs off); a temp HOME; the fake is HTTP(S) proxy, so other hosts are escapes.
 */
import { join } from "node:path";
import { cliLauncher, nodeBin, offlineEnv } from "../../support/agent-cli.ts";

export const OPENCODE_VERSION = "1.18.33";

/** `opencode run <prompt>`. */
export const opencodeCli = opencodeLauncher("m");

/**
 * `opencode run <prompt>` with the fake's model named `model` (OpenCode gives a model whose
 * name holds `gpt-`, not gpt-4, its apply_patch tool instead of write and edit) and more
 * of OpenCode's config.
 */
export function opencodeLauncher(model: string, config: Record<string, unknown> = {}) {
  return cliLauncher({
    agent: "opencode",
    bin: nodeBin("opencode"),
    args: (prompt) => ["run", prompt],
    env: (home, apiUrl) =>
      offlineEnv(home, apiUrl, {
        XDG_CONFIG_HOME: join(home, ".config"),
        XDG_DATA_HOME: join(home, ".local", "share"),
        XDG_CACHE_HOME: join(home, ".cache"),
        XDG_STATE_HOME: join(home, ".local", "state"),
        OPENCODE_CONFIG_CONTENT: JSON.stringify({
          autoupdate: false,
          share: "disabled",
          provider: {
            fake: {
              name: "fake",
              options: { baseURL: `${apiUrl}/v1`, apiKey: "dummy" },
              models: { [model]: { name: model } },
            },
          },
          model: `fake/${model}`,
          ...config,
        }),
        OPENCODE_DISABLE_MODELS_FETCH: "1",
        OPENCODE_DISABLE_DEFAULT_PLUGINS: "1",
        OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
        OPENCODE_DISABLE_AUTOUPDATE: "1",
        OPENCODE_DISABLE_SHARE: "1",
        // its background install of @opencode-ai/plugin asks the package registry: ask the fake
        npm_config_registry: `${apiUrl}/npm/`,
        NPM_CONFIG_REGISTRY: `${apiUrl}/npm/`,
        BUN_CONFIG_REGISTRY: `${apiUrl}/npm/`,
      }),
  });
}
