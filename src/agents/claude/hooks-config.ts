import type { ResolvedConfig } from "../../config/resolve.ts";
import { failClosedCommand } from "../../hook/fail-closed-command.ts";
import { isCompiledBinary } from "../../platform/self-command.ts";
import { AFTER_TOOLS_MATCHER, EDIT_TOOLS_MATCHER, REWAKE_FLAG } from "./protocol.ts";

export interface HookGroup {
  matcher?: string;
  hooks: (CommandHook | HttpHook)[];
}

export interface CommandHook {
  type: "command";
  command: string;
  timeout?: number;
  /** "block": a hook that cannot start, crashes or times out blocks the tool (2.1.295+). */
  onFailure?: "block";
  /** Runs in the background; its exit 2 wakes the model with its stderr. */
  asyncRewake?: true;
}

/** Header values name `allowedEnvVars` as $VAR. */
export interface HttpHook {
  type: "http";
  url: string;
  headers: Record<string, string>;
  allowedEnvVars: string[];
  timeout?: number;
}

export interface HttpTarget {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly allowedEnvVars: readonly string[];
}

export type HooksBlock = Record<string, HookGroup[]>;

/** Seconds. */
export const DEFAULT_HOOK_TIMEOUT_S = 600;

/** The compiled binary's path (hooks work without cpilot on PATH), else `cpilot` from PATH. */
export function hookCommandLine(execPath = process.execPath): string {
  const bin = isCompiledBinary(execPath) ? shellQuote(execPath) : "cpilot";
  return `${bin} hook claude`;
}

function shellQuote(s: string): string {
  return /^[A-Za-z0-9_./+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** Any binary path, any quoting. */
export function isCpilotCommand(command: unknown): boolean {
  return (
    typeof command === "string" &&
    /(^|[/\s'"])cpilot(\.exe|\.sh)?['"]?\s+hook\s+claude(\s|;|$)/.test(command)
  );
}

/** Past the longest blocking callback (a Stop re-runs it) with a minute to spare, never under Claude's default. */
export function hookTimeoutSeconds(config: ResolvedConfig | null): number {
  let longest = 0;
  for (const cb of config?.callbacks ?? []) {
    if (cb.blocking) longest = Math.max(longest, Math.ceil(cb.timeoutMs / 1000));
  }
  return Math.max(DEFAULT_HOOK_TIMEOUT_S, longest + 60);
}

/** Past the longest background callback with a minute to spare, never under Claude's default. */
export function rewakeTimeoutSeconds(config: ResolvedConfig | null): number {
  let longest = 0;
  for (const cb of config?.callbacks ?? []) {
    if (!cb.blocking) longest = Math.max(longest, Math.ceil(cb.timeoutMs / 1000));
  }
  return Math.max(DEFAULT_HOOK_TIMEOUT_S, longest + 60);
}

/**
 * `batchEvent: false` leaves out PostToolBatch (Claude Code before 2.1). With `http`, the
 * calls after edits and at the stop are posted to that listener; the write gate stays a
 * command: Claude Code takes an unreachable HTTP hook as a non-blocking error, which
 * would let the write through.
 */
export function cpilotHooks(options: {
  command: string;
  timeout: number;
  batchEvent: boolean;
  http?: HttpTarget;
  /** A missing or crashing cpilot refuses the write. */
  failClosed?: boolean;
  /** A background Stop hook brings late background failures to the model. */
  rewakeTimeout?: number;
}): HooksBlock {
  const hook: CommandHook = { type: "command", command: options.command, timeout: options.timeout };
  const gate: CommandHook = options.failClosed
    ? { ...hook, command: failClosedCommand(options.command), onFailure: "block" }
    : hook;
  const after: CommandHook | HttpHook =
    options.http === undefined
      ? hook
      : {
          type: "http",
          url: options.http.url,
          headers: { ...options.http.headers },
          allowedEnvVars: [...options.http.allowedEnvVars],
          timeout: options.timeout,
        };
  const always: HookGroup[] = [{ hooks: [hook] }];
  const rewake: CommandHook[] =
    options.rewakeTimeout === undefined
      ? []
      : [
          {
            type: "command",
            command: `${options.command} ${REWAKE_FLAG}`,
            timeout: options.rewakeTimeout,
            asyncRewake: true,
          },
        ];
  return {
    SessionStart: always,
    UserPromptSubmit: always,
    PreToolUse: [{ matcher: EDIT_TOOLS_MATCHER, hooks: [gate] }],
    PostToolUse: [{ matcher: AFTER_TOOLS_MATCHER, hooks: [after] }],
    ...(options.batchEvent ? { PostToolBatch: [{ hooks: [after] }] } : {}),
    Stop: [{ hooks: [after, ...rewake] }],
    // A subagent's stop is held by the same gate, so it fixes what it broke before it hands back.
    SubagentStop: [{ hooks: [after] }],
  };
}
