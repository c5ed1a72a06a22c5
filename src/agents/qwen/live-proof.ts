/**
 * Qwen Code headless (`qwen -p --yolo`) on the fake Chat Completions API. The throwaway
 * project's own settings (which outrank the user's) choose the OpenAI-compatible sign-in.
 */
import { spawnSync } from "node:child_process";
import { type LiveDriver, proxyTo } from "../../proof/live-driver.ts";
import { assistantTurns, messagesAfter, openaiChat } from "../../proof/model/openai-chat.ts";
import { stringsIn } from "../../proof/model/server.ts";
import { copyGeminiStyleSettings } from "../kit/gemini-style-settings.ts";

const DROPPED = /^(OPENAI_|QWEN_|DASHSCOPE_|AI_AGENT$)|_PROXY$/i;

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
        ...proxyTo(modelUrl),
      },
    };
  },
  receivedAfter(requests, turn) {
    const asked = requests.filter((r) => r.kind === "turn" && assistantTurns(r.body) > turn);
    const last = asked.at(-1);
    return last === undefined ? null : stringsIn(messagesAfter(last.body, turn));
  },
  copyProjectSettings: (root, project) => copyGeminiStyleSettings(root, project, ".qwen", "openai"),
};
