/** `cpilot run -- claude`: cpilot's hooks (merged with the person's `--settings`) for this session only. */
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { SESSION_FLAG } from "../../hook/session-hooks.ts";
import { CpilotError } from "../../util/errors.ts";
import type { SessionRequest } from "../contract.ts";
import { detectClaudeVersion, supportsBatchEvent, supportsMods } from "./detect-version.ts";
import {
  cpilotHooks,
  hookCommandLine,
  hookTimeoutSeconds,
  rewakeTimeoutSeconds,
} from "./hooks-config.ts";
import { MOD_NAME, writeModPlugin } from "./mod/plugin.ts";
import { addCpilotHooks } from "./settings-file.ts";

export function claudeSessionArgs(request: SessionRequest): string[] {
  const userSettings = takeSettingsArg(request.args, request.cwd);
  const version = detectClaudeVersion(request.command);
  const hookUrl = request.hookUrl;
  const hooks = cpilotHooks({
    command: `${hookCommandLine()} ${SESSION_FLAG}`,
    timeout: hookTimeoutSeconds(request.config),
    batchEvent: supportsBatchEvent(version),
    rewakeTimeout: rewakeTimeoutSeconds(request.config),
    ...(hookUrl !== undefined ? { http: hookUrl } : {}),
  });
  // What Claude Code sets for its hook commands, which the listener's calls lack.
  hookUrl?.addCallEnv({
    CLAUDE_PROJECT_DIR: request.cwd,
    ...(version !== null ? { AI_AGENT: `claude-code_${version.join("-")}_cli` } : {}),
  });
  const settingsPath = join(request.dir, "settings.json");
  writeFileSync(
    settingsPath,
    JSON.stringify(addCpilotHooks(userSettings.settings, hooks), null, 2),
  );
  const mod = modArgs(request, version);
  return ["--settings", settingsPath, ...mod, ...userSettings.args];
}

/** For a Claude Code that loads mods and a config with a fixer: the model's edits carry the formatted text. */
function modArgs(request: SessionRequest, version: readonly number[] | null): string[] {
  if (!supportsMods(version)) return [];
  if (!request.config?.callbacks.some((cb) => cb.fixes)) return [];
  const dir = join(request.dir, MOD_NAME);
  writeModPlugin(dir);
  return ["--plugin-dir", dir];
}

/** To merge cpilot's hooks into it. */
function takeSettingsArg(
  args: readonly string[],
  cwd: string,
): { settings: Record<string, unknown>; args: string[] } {
  const out: string[] = [];
  let raw: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === "--settings" && i + 1 < args.length) raw = args[++i];
    else if (arg.startsWith("--settings=")) raw = arg.slice("--settings=".length);
    else out.push(arg);
  }
  if (raw === undefined) return { settings: {}, args: out };
  const text = raw.trimStart().startsWith("{") ? raw : readFileSync(resolve(cwd, raw), "utf8");
  try {
    return { settings: JSON.parse(text) as Record<string, unknown>, args: out };
  } catch (err) {
    throw new CpilotError(`Cannot read --settings "${raw}": ${(err as Error).message}`, {
      hint: "pass a JSON file or a JSON object",
    });
  }
}
