/**
 * Qwen Code, headless (`qwen -p --yolo`), on cpilot's Chat Completions API. The person's HOME
 * and settings stay; the endpoint moves through OPENAI_BASE_URL, a fake key and the proxy
 * variables, and the throwaway project's own settings (which outrank the user's) choose the
 * OpenAI-compatible sign-in, as a person signed in with Qwen's OAuth would not have it.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { LiveDriver } from "../kit/live-driver.ts";
import { assistantTurns, messagesAfter, openaiChat } from "../kit/proof-model/openai-chat.ts";
import { stringsIn } from "../kit/proof-model/server.ts";

const DROPPED = /^(OPENAI_|QWEN_|DASHSCOPE_|AI_AGENT$)|_PROXY$/i;

function readObject(path: string): Record<string, unknown> {
  try {
    const v = JSON.parse(readFileSync(path, "utf8")) as unknown;
    return v !== null && typeof v === "object" && !Array.isArray(v)
      ? (v as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

const sub = (o: Record<string, unknown>, key: string): Record<string, unknown> => {
  const v = o[key];
  return v !== null && typeof v === "object" && !Array.isArray(v)
    ? (v as Record<string, unknown>)
    : {};
};

export const qwenDriver: LiveDriver = {
  shape: openaiChat("write_file", "file_path", "content"),
  version(bin, env) {
    const r = spawnSync(bin, ["--version"], { env, encoding: "utf8", timeout: 30_000 });
    return r.status === 0 ? (r.stdout.trim().split("\n").at(-1) ?? null) : null;
  },
  run({ prompt, modelUrl, env }) {
    const kept = Object.fromEntries(Object.entries(env).filter(([k]) => !DROPPED.test(k)));
    return {
      args: ["-p", prompt, "--yolo"],
      env: {
        ...kept,
        OPENAI_API_KEY: "cpilot-proof-offline-key",
        OPENAI_BASE_URL: `${modelUrl}/v1`,
        OPENAI_MODEL: "cpilot-proof",
        QWEN_CODE_SUPPRESS_YOLO_WARNING: "1",
        HTTPS_PROXY: modelUrl,
        HTTP_PROXY: modelUrl,
        https_proxy: modelUrl,
        http_proxy: modelUrl,
        NO_PROXY: "127.0.0.1,localhost",
        no_proxy: "127.0.0.1,localhost",
      },
    };
  },
  receivedAfter(requests, turn) {
    const asked = requests.filter((r) => r.kind === "turn" && assistantTurns(r.body) > turn);
    const last = asked.at(-1);
    return last === undefined ? null : stringsIn(messagesAfter(last.body, turn));
  },
  copyProjectSettings(root, project) {
    const from = join(root, ".qwen", "settings.json");
    const theirs = readObject(from);
    const { hooks: _theirHooks, ...rest } = theirs;
    const security = sub(rest, "security");
    const settings = {
      ...rest,
      security: { ...security, auth: { ...sub(security, "auth"), selectedType: "openai" } },
      privacy: { ...sub(rest, "privacy"), usageStatisticsEnabled: false },
      telemetry: { ...sub(rest, "telemetry"), enabled: false },
      general: { ...sub(rest, "general"), disableAutoUpdate: true, disableUpdateNag: true },
    };
    mkdirSync(join(project, ".qwen"), { recursive: true });
    writeFileSync(
      join(project, ".qwen", "settings.json"),
      `${JSON.stringify(settings, null, 2)}\n`,
    );
    return Object.keys(theirs).length > 0 ? [from] : [];
  },
};
