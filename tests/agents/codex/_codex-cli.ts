/**
 * Run the pinned real Codex CLI (node_modules/.bin/codex, 0.169.0) offline: a temp
 * CODEX_HOME whose config.toml points a model provider at a fake Responses API on
 * 127.0.0.1 (model gpt-5.5, which Codex offers apply_patch as a freeform tool), and the
 * fake as HTTP(S) proxy so a request for any other host is recorded as an escape.
 */
import { mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathWithCpilot, runtimeEnv } from "../../helpers/binary.ts";
import { type CliRun, runCli } from "../../support/run-cli.ts";

export const CODEX_BIN = join(import.meta.dir, "..", "..", "..", "node_modules", ".bin", "codex");

/** A fresh CODEX_HOME (outside /tmp-named helper rules do not matter) with the fake provider. */
export function codexHome(apiUrl: string): string {
  const home = realpathSync(mkdtempSync(join(tmpdir(), "cpilot-codex-home-")));
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

/** The environment Codex (and cpilot beside it) runs with. */
export function codexEnv(home: string, apiUrl: string): Record<string, string> {
  return {
    PATH: pathWithCpilot(process.env.PATH ?? "/usr/bin:/bin"),
    HOME: home,
    CODEX_HOME: home,
    FAKE_OPENAI_KEY: "dummy",
    CPILOT_CODEX: CODEX_BIN,
    HTTPS_PROXY: apiUrl,
    HTTP_PROXY: apiUrl,
    NO_PROXY: "127.0.0.1,localhost",
    ...runtimeEnv(),
  };
}

/** `codex exec <prompt>` in `cwd` (no sandbox: bubblewrap is not here), maybe through `via`. */
export function runCodex(options: {
  cwd: string;
  prompt: string;
  home: string;
  apiUrl: string;
  via?: string[];
  args?: string[];
  timeoutMs?: number;
}): Promise<CliRun> {
  const codexArgs = [
    "exec",
    "--skip-git-repo-check",
    "--dangerously-bypass-approvals-and-sandbox",
    "--ephemeral",
    ...(options.args ?? []),
    options.prompt,
  ];
  return runCli([...(options.via ?? []), CODEX_BIN, ...codexArgs], {
    cwd: options.cwd,
    env: codexEnv(options.home, options.apiUrl),
    offlineTo: options.apiUrl,
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
  });
}
