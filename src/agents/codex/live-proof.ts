/**
 * Codex headless (`codex exec`) on the fake Responses API. Codex reads a project's .codex/
 * only in a project it trusts and ignores trust given for one run, so the run gets a
 * CODEX_HOME of its own (a copy of the person's config.toml, no sign-in files) where the
 * throwaway project is trusted; the person's files are not written. Copied project hooks
 * are keyed to the original path, so Codex skips them.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { type LiveDriver, proxyTo } from "../../proof/live-driver.ts";
import {
  assistantTurnsIn,
  inputAfterTurn,
  openaiResponses,
} from "../../proof/model/openai-responses.ts";
import { stringsIn } from "../../proof/model/server.ts";
import { hooksTurnedOffIn } from "./hooks-feature.ts";
import { codexHome } from "./protocol.ts";

/** Variables that would send the session elsewhere, or name another Codex home or key. */
const DROPPED = /^(OPENAI_|CODEX_|AI_AGENT$)|_PROXY$/i;

export const codexDriver: LiveDriver = {
  shape: openaiResponses,
  installTrustsProject: true,
  version(bin, env) {
    const r = spawnSync(bin, ["--version"], { env, encoding: "utf8", timeout: 30_000 });
    // "codex-cli 0.169.0"
    const line = r.status === 0 ? (r.stdout.trim().split("\n").at(-1) ?? "") : "";
    return line.replace(/^codex-cli\s+/, "") || null;
  },
  substitute({ home, env, scratch, bin }) {
    const theirs = join(codexHome(home, env), "config.toml");
    const copy = join(scratch, "codex-home");
    mkdirSync(copy, { recursive: true });
    const copied = existsSync(theirs);
    if (copied) copyFileSync(theirs, join(copy, "config.toml"));
    return {
      env: { ...env, CODEX_HOME: copy, CPILOT_CODEX: bin },
      notes: [
        copied
          ? `your Codex settings (${theirs}) were copied into a throwaway CODEX_HOME, which alone was written: trust in the throwaway project and cpilot's hooks there, as \`cpilot install codex --trust-project\` records it`
          : `no Codex settings at ${theirs}: a throwaway CODEX_HOME held only the trust in the throwaway project and cpilot's hooks there`,
        "Codex ran with its sandbox and approvals off (in the throwaway project), its MCP servers and plugins not started",
      ],
    };
  },
  run({ prompt, modelUrl, env }) {
    const kept = Object.fromEntries(
      Object.entries(env).filter(([k]) => !DROPPED.test(k) || k === "CODEX_HOME"),
    );
    const provider = `{ name = "cpilot proof", base_url = "${modelUrl}/v1", wire_api = "responses", env_key = "CPILOT_PROOF_OPENAI_KEY" }`;
    const set = (key: string, value: string) => ["-c", `${key}=${value}`];
    return {
      args: [
        "exec",
        "--skip-git-repo-check",
        "--dangerously-bypass-approvals-and-sandbox",
        "--ephemeral",
        // gpt-5.5: Codex offers it apply_patch as a freeform tool, which the fake answers with
        ...set("model", '"gpt-5.5"'),
        ...set("model_provider", '"cpilot_proof"'),
        ...set("model_providers.cpilot_proof", provider),
        ...set("mcp_servers", "{}"),
        ...set("features.plugins", "false"),
        ...set("features.remote_plugin", "false"),
        ...set("features.plugin_sharing", "false"),
        ...set("features.apps", "false"),
        ...set("features.in_app_updates", "false"),
        ...set("analytics.enabled", "false"),
        prompt,
      ],
      env: {
        ...kept,
        CPILOT_CODEX: env.CPILOT_CODEX ?? "codex",
        CPILOT_PROOF_OPENAI_KEY: "cpilot-proof-offline-key",
        ...proxyTo(modelUrl),
      },
    };
  },
  receivedAfter(requests, turn) {
    const asked = requests.filter((r) => r.kind === "turn" && assistantTurnsIn(r.body) > turn);
    const last = asked.at(-1);
    return last === undefined ? null : stringsIn(inputAfterTurn(last.body, turn));
  },
  copyProjectSettings(root, project) {
    const from = join(root, ".codex", "config.toml");
    if (!existsSync(from)) return [];
    mkdirSync(join(project, ".codex"), { recursive: true });
    copyFileSync(from, join(project, ".codex", "config.toml"));
    return [from];
  },
  hookSwitches(root, home, env) {
    const off = hooksTurnedOffIn(root, codexHome(home, env));
    return off === null ? [] : [`hooks = false under [features] in ${off}`];
  },
};
