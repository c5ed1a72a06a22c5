/**
 * Claude Code headless (`claude -p`) on the fake Messages API. The person's settings and
 * hooks stay in force; only the endpoint moves (env and `--settings`, whose `env` outranks
 * a settings file's). MCP servers are not started: they could reach the network.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type LiveDriver, proxyTo } from "../../proof/live-driver.ts";
import {
  anthropicMessages,
  assistantMessages,
  messagesAfterTurn,
} from "../../proof/model/anthropic-messages.ts";
import { stringsIn } from "../../proof/model/server.ts";
import { claudeHookSwitches } from "./hook-switches.ts";

/** Variables that would send the session elsewhere, or mark it as run inside Claude Code. */
const DROPPED =
  /^(ANTHROPIC_|CLAUDE_CODE_USE_|CLAUDECODE$|CLAUDE_CODE_ENTRYPOINT$|AI_AGENT$)|_PROXY$/i;

export const claudeDriver: LiveDriver = {
  shape: anthropicMessages,
  version(bin, env) {
    const r = spawnSync(bin, ["--version"], { env, encoding: "utf8", timeout: 20_000 });
    // "2.1.330 (Claude Code)"
    const line = r.status === 0 ? (r.stdout.trim().split("\n")[0] ?? "") : "";
    return line.replace(/\s*\(Claude Code\)$/, "") || null;
  },
  run({ prompt, modelUrl, env, scratch }) {
    const endpoint = {
      ANTHROPIC_BASE_URL: modelUrl,
      ANTHROPIC_API_KEY: "sk-ant-cpilot-proof-offline",
      ...proxyTo(modelUrl),
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      DISABLE_AUTOUPDATER: "1",
      DISABLE_TELEMETRY: "1",
      DISABLE_ERROR_REPORTING: "1",
    };
    const settings = join(scratch, "endpoint-settings.json");
    writeFileSync(settings, `${JSON.stringify({ env: endpoint }, null, 2)}\n`);
    const kept = Object.fromEntries(Object.entries(env).filter(([k]) => !DROPPED.test(k)));
    return {
      args: [
        "-p",
        prompt,
        "--settings",
        settings,
        "--permission-mode",
        "acceptEdits",
        "--strict-mcp-config",
        "--no-session-persistence",
      ],
      env: { ...kept, ...endpoint },
    };
  },
  receivedAfter(requests, turn) {
    const asked = requests.filter(
      (r) => r.kind === "turn" && assistantMessages(r.body).length > turn,
    );
    const last = asked.at(-1);
    return last === undefined ? null : stringsIn(messagesAfterTurn(last.body, turn));
  },
  hookSwitches: claudeHookSwitches,
  copyProjectSettings(root, project) {
    const copied: string[] = [];
    for (const name of ["settings.json", "settings.local.json"]) {
      const from = join(root, ".claude", name);
      let settings: unknown;
      try {
        settings = JSON.parse(readFileSync(from, "utf8"));
      } catch {
        continue; // absent or unreadable: Claude Code reads nothing there either
      }
      if (settings === null || typeof settings !== "object" || Array.isArray(settings)) continue;
      const { hooks: _theirs, ...rest } = settings as Record<string, unknown>;
      mkdirSync(join(project, ".claude"), { recursive: true });
      writeFileSync(join(project, ".claude", name), `${JSON.stringify(rest, null, 2)}\n`);
      copied.push(from);
    }
    return copied;
  },
};
