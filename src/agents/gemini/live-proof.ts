/**
 * Gemini CLI, headless (`gemini -p`), on cpilot's Gemini API. The person's HOME and settings
 * stay; the endpoint moves through GOOGLE_GEMINI_BASE_URL, a fake API key and the proxy
 * variables. A person signed in with Google has that sign-in chosen in their settings, which
 * outranks the environment: the throwaway project's own settings (which outrank the user's)
 * choose API-key sign-in and turn telemetry and update checks off. A system settings file
 * would outrank everything, but Gemini CLI reads one only from a folder owned by root.
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
    // the throwaway project stands for the person's: trusted when theirs is, else not
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
