/**
 * Run the pinned real Codex CLI (node_modules/.bin/codex, 0.169.0) offline: a temp
 * CODEX_HOME whose config.toml points a model provider at a fake Responses API on
 * 127.0.0.1 (model gpt-5.5, which Codex offers apply_patch as a freeform tool), and the
 * fake as HTTP(S) proxy so a request for any other host is recorded as an escape.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { cliLauncher, nodeBin, offlineEnv, tempHome } from "../../support/agent-cli.ts";

export const CODEX_BIN = nodeBin("codex");

/** A fresh CODEX_HOME (outside /tmp-named helper rules do not matter) with the fake provider. */
function codexHome(apiUrl: string): string {
  const home = tempHome("codex");
  writeFileSync(
    join(home, "config.toml"),
    [
      'model = "gpt-5.5"',
      'model_provider = "fake"',
      "",
      "[model_providers.fake]",
      'name = "fake"',
      `base_url = "${apiUrl}/v1"`,
      'wire_api = "responses"',
      'env_key = "FAKE_OPENAI_KEY"',
      "",
      // what Codex fetches beside the model: plugin marketplaces, apps, analytics
      "[features]",
      "plugins = false",
      "remote_plugin = false",
      "plugin_sharing = false",
      "apps = false",
      "in_app_updates = false",
      "",
      "[analytics]",
      "enabled = false",
      "",
    ].join("\n"),
  );
  return home;
}

/**
 * `codex exec <prompt>` (no sandbox: bubblewrap is not here), with the environment Codex
 * (and cpilot beside it) runs with.
 */
export const codexCli = cliLauncher({
  agent: "codex",
  bin: CODEX_BIN,
  args: (prompt) => [
    "exec",
    "--skip-git-repo-check",
    "--dangerously-bypass-approvals-and-sandbox",
    "--ephemeral",
    prompt,
  ],
  home: codexHome,
  env: (home, apiUrl) =>
    offlineEnv(home, apiUrl, {
      CODEX_HOME: home,
      FAKE_OPENAI_KEY: "dummy",
      CPILOT_CODEX: CODEX_BIN,
    }),
});
