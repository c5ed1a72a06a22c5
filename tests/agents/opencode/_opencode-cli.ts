/**
 * Run the pinned real OpenCode (node_modules/.bin/opencode, 1.18.33) offline: its config
 * (OPENCODE_CONFIG_CONTENT) names one OpenAI-compatible provider at a fake Chat Completions
 * API on 127.0.0.1; the model catalog fetch, default plugins, LSP downloads, sharing and
 * updates are off; its package installs ask the fake as registry (and fail there, which
 * OpenCode shrugs off); a temp HOME; the fake is HTTP(S) proxy, so other hosts are escapes.
 */
import { mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathWithCpilot, runtimeEnv } from "../../helpers/binary.ts";
import { type CliRun, runCli } from "../../support/run-cli.ts";

export const OPENCODE_BIN = join(
  import.meta.dir,
  "..",
  "..",
  "..",
  "node_modules",
  ".bin",
  "opencode",
);
export const OPENCODE_VERSION = "1.18.33";

export function opencodeHome(): string {
  return realpathSync(mkdtempSync(join(tmpdir(), "cpilot-opencode-home-")));
}

export function opencodeEnv(home: string, apiUrl: string): Record<string, string> {
  return {
    PATH: pathWithCpilot(process.env.PATH ?? "/usr/bin:/bin"),
    HOME: home,
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
          models: { m: { name: "m" } },
        },
      },
      model: "fake/m",
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
    HTTPS_PROXY: apiUrl,
    HTTP_PROXY: apiUrl,
    NO_PROXY: "127.0.0.1,localhost",
    ...runtimeEnv(),
  };
}

/** `opencode run <prompt>` in `cwd`, maybe through `via`. */
export function runOpencode(options: {
  cwd: string;
  prompt: string;
  home: string;
  apiUrl: string;
  via?: string[];
}): Promise<CliRun> {
  return runCli([...(options.via ?? []), OPENCODE_BIN, "run", options.prompt], {
    cwd: options.cwd,
    offlineTo: options.apiUrl,
    env: opencodeEnv(options.home, options.apiUrl),
  });
}
