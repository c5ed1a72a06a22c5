import type { ResolvedConfig } from "../../config/resolve.ts";
import { failClosedCommand } from "../../hook/fail-closed-command.ts";
import { isCompiledBinary } from "../../platform/self-command.ts";
import { AFTER_TOOLS_MATCHER, EDIT_TOOLS_MATCHER, REWAKE_FLAG } from "./protocol.ts";

/** One entry of Claude Code's `hooks.<Event>` arrays. */
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

/** Claude Code posts the hook's JSON to `url`; header values name `allowedEnvVars` as $VAR. */
export interface HttpHook {
  type: "http";
  url: string;
  headers: Record<string, string>;
  allowedEnvVars: string[];
  timeout?: number;
}

/** Where a session's listener takes hook calls (src/hook/http-listener.ts). */
export interface HttpTarget {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly allowedEnvVars: readonly string[];
}

export type HooksBlock = Record<string, HookGroup[]>;

/** Claude Code's default hook timeout, seconds. */
export const DEFAULT_HOOK_TIMEOUT_S = 600;

/**
 * The shell command Claude Code runs: the absolute path of this binary when cpilot runs as
 * the compiled binary (so hooks work without cpilot on PATH, and keep working for that
 * exact build), else `cpilot` from PATH (running from source, `bun main.ts`).
 */
export function hookCommandLine(execPath = process.execPath): string {
  const bin = isCompiledBinary(execPath) ? shellQuote(execPath) : "cpilot";
  return `${bin} hook claude`;
}

function shellQuote(s: string): string {
  return /^[A-Za-z0-9_./+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** True for a hook command cpilot installed (any binary path, any quoting). */
export function isCpilotCommand(command: unknown): boolean {
  return (
    typeof command === "string" &&
    /(^|[/\s'"])cpilot(\.exe|\.sh)?['"]?\s+hook\s+claude(\s|;|$)/.test(command)
  );
}

/**
 * Seconds Claude Code gives each hook: past the longest blocking callback (a PostToolUse
 * runs it, a Stop re-runs it) with a minute to spare, and never under Claude's own default.
 */
export function hookTimeoutSeconds(config: ResolvedConfig | null): number {
  let longest = 0;
  for (const cb of config?.callbacks ?? []) {
    if (cb.blocking) longest = Math.max(longest, Math.ceil(cb.timeoutMs / 1000));
  }
  return Math.max(DEFAULT_HOOK_TIMEOUT_S, longest + 60);
}

/**
 * Seconds the background Stop hook may wait for the background callbacks: past the longest
 * one with a minute to spare, and never under Claude's own default.
 */
export function rewakeTimeoutSeconds(config: ResolvedConfig | null): number {
  let longest = 0;
  for (const cb of config?.callbacks ?? []) {
    if (!cb.blocking) longest = Math.max(longest, Math.ceil(cb.timeoutMs / 1000));
  }
  return Math.max(DEFAULT_HOOK_TIMEOUT_S, longest + 60);
}

/**
 * The hooks cpilot registers: the write gate before edits, callbacks after each edit, each
 * shell command (what it wrote is found by comparing the project's files) and each batch,
 * the stop check (a subagent's too) with a background hook that wakes the model with
 * background failures that arrive after it stopped, and at the start of a session and of each turn the callbacks panel and
 * the record of the project's files.
 * `batchEvent: false` leaves out PostToolBatch (Claude Code before 2.1). With `http`, the
 * calls after edits and at the stop are posted to that listener instead of starting a
 * process; the write gate stays a command: an HTTP hook that cannot be reached lets the
 * write through (Claude Code 2.1.330 takes a failed HTTP hook as a non-blocking error).
 */
export function cpilotHooks(options: {
  command: string;
  timeout: number;
  batchEvent: boolean;
  http?: HttpTarget;
  /** The write gate fails closed: a missing or crashing cpilot refuses the write. */
  failClosed?: boolean;
  /** With it, a background Stop hook brings background failures to the model (REWAKE_FLAG). */
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
    // A subagent's tool calls fire the hooks above in the parent's session; its stop is held
    // by the same gate, so it fixes what it broke before it hands back.
    SubagentStop: [{ hooks: [after] }],
  };
}
