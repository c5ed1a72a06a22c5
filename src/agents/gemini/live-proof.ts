/**
 * Gemini CLI headless (`gemini -p`) on the fake Gemini API. A Google sign-in chosen in the
 * person's settings outranks the environment, so the throwaway project's settings (which
 * outrank the user's) choose API-key sign-in; Gemini reads a system settings file only
 * from a root-owned folder.
 */
import { spawnSync } from "node:child_process";
import { type LiveDriver, proxyTo } from "../../proof/live-driver.ts";
import {
  contentsAfterTurn,
  geminiGenerate,
  modelTurns,
} from "../../proof/model/gemini-generate.ts";
import { stringsIn } from "../../proof/model/server.ts";
import { copyGeminiStyleSettings } from "../kit/gemini-style-settings.ts";
import { geminiTrustFile, geminiTrusts } from "./folder-trust.ts";

const DROPPED = /^(GEMINI_API_KEY|GOOGLE_|GEMINI_CLI_TRUST_WORKSPACE$|AI_AGENT$)|_PROXY$/i;

export const geminiDriver: LiveDriver = {
  shape: geminiGenerate,
  version(bin, env) {
    const r = spawnSync(bin, ["--version"], {
      env: { ...env, GEMINI_CLI_NO_RELAUNCH: "true" },
      encoding: "utf8",
      timeout: 30_000,
    });
    return r.status === 0 ? (r.stdout.trim().split("\n").at(-1) ?? null) : null;
  },
  run({ prompt, root, home, modelUrl, env }) {
    const trusted = geminiTrusts(root, home, env) !== false;
    const kept = Object.fromEntries(Object.entries(env).filter(([k]) => !DROPPED.test(k)));
    return {
      args: ["-p", prompt, "--yolo", "-m", "gemini-2.5-pro", "-o", "json"],
      env: {
        ...kept,
        GEMINI_API_KEY: "cpilot-proof-offline-key",
        GOOGLE_GEMINI_BASE_URL: modelUrl,
        ...proxyTo(modelUrl),
        GEMINI_CLI_NO_RELAUNCH: "true",
        ...(trusted ? { GEMINI_CLI_TRUST_WORKSPACE: "true" } : {}),
      },
    };
  },
  receivedAfter(requests, turn) {
    const asked = requests.filter((r) => r.kind === "turn" && modelTurns(r.body) > turn);
    const last = asked.at(-1);
    return last === undefined ? null : stringsIn(contentsAfterTurn(last.body, turn));
  },
  copyProjectSettings: (root, project) =>
    copyGeminiStyleSettings(root, project, ".gemini", "gemini-api-key"),
  untrusted(root, home, env) {
    return geminiTrusts(root, home, env) === false
      ? [
          `Gemini CLI does not trust ${root} (folder trust is on; ${geminiTrustFile(home, env)} does not name it): until you trust it (Gemini asks on its first start there) it reads no project settings, hooks included, and headless it does not start at all (0.61, seen)`,
        ]
      : [];
  },
};
