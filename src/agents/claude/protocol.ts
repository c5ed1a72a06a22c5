/** Claude Code's hook protocol: its payload, its tools and the files they edit, its replies. */
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { editWrite, readHookJson, shellCommand, str } from "../../hook/hook-input.ts";
import type { ChangeKind } from "../../model/batch.ts";
import type { PendingWrite } from "../../model/gate-types.ts";
import type {
  AgentProtocol,
  HookAnswer,
  HookEvent,
  HookEventKind,
  HookHandler,
  HookReply,
  WrittenFile,
} from "../../model/hook.ts";
import { isObject } from "../../util/json-file.ts";
import { stateDir } from "../../util/state-dir.ts";
import { STATE, statePath } from "../../util/state-layout.ts";
import { preToolUseDeny } from "../kit/deny-forms.ts";
import { intendedMultiEdit } from "./updated-input.ts";

/** $CLAUDE_CONFIG_DIR, else ~/.claude. */
export function claudeConfigDir(home: string, env: NodeJS.ProcessEnv): string {
  return env.CLAUDE_CONFIG_DIR || join(home, ".claude");
}

/** The background Stop hook (`asyncRewake`): waits for background results, wakes the model with a failure. */
export const REWAKE_FLAG = "--rewake";

export const claudeProtocol: AgentProtocol = {
  preWriteEvent: "PreToolUse",
  denyForm: preToolUseDeny,
  emptyJson: null,
  projectDirVar: "CLAUDE_PROJECT_DIR",
  // plan mode writes ~/.claude/plans/<name>.md with Write; todo lists live in ~/.claude/todos/
  stateDirs: (home, env) => [
    join(claudeConfigDir(home, env), "plans"),
    join(claudeConfigDir(home, env), "todos"),
  ],
};

/** The hook's stdin is checked by hand (no schema library on the hot path): a missing field is an error, never a crash. */

export interface ClaudeToolCall {
  readonly toolName: string;
  readonly toolInput: Record<string, unknown>;
  readonly toolUseId: string;
  /** An object in PostToolUse; the tool_result string in PostToolBatch. */
  readonly toolResponse: unknown;
}

export interface ClaudeHookInput {
  readonly event: string;
  readonly session: string;
  readonly cwd: string;
  readonly transcriptPath: string | undefined;
  readonly permissionMode: string | undefined;
  readonly tool: ClaudeToolCall | undefined;
  readonly toolCalls: readonly ClaudeToolCall[];
  /** Stop: older versions do not send it (read the transcript). */
  readonly lastAssistantMessage: string | undefined;
  readonly stopHookActive: boolean;
  /** A subagent's own id (`agent_id`). */
  readonly agentId: string | undefined;
  /** SessionStart: startup, resume, clear or compact. */
  readonly source: string | undefined;
  /** Cursor runs Claude Code's hooks too: its workspace roots when it sent this call; null for Claude Code's own. */
  readonly fromCursor: readonly string[] | null;
}

export type ParsedInput = { ok: true; input: ClaudeHookInput } | { ok: false; error: string };

type Obj = Record<string, unknown>;

/** Every Cursor payload carries them; Claude Code's never does. */
const CURSOR_FIELDS = ["cursor_version", "conversation_id", "generation_id", "workspace_roots"];

const isObj = isObject as (v: unknown) => v is Obj;

function toolCall(raw: Obj, names: { input: string; response: string }): ClaudeToolCall | null {
  const toolName = str(raw.tool_name);
  const toolInput = raw[names.input];
  if (toolName === undefined || !isObj(toolInput)) return null;
  return {
    toolName,
    toolInput,
    toolUseId: str(raw.tool_use_id) ?? "",
    toolResponse: raw[names.response],
  };
}

/** `fallbackCwd` when the payload has no `cwd` (CLAUDE_PROJECT_DIR, else the process's). */
export function parseHookInput(text: string, fallbackCwd: string): ParsedInput {
  const read = readHookJson(text);
  if (!read.ok) return read;
  const { raw, event } = read;
  const tool = toolCall(raw, { input: "tool_input", response: "tool_response" }) ?? undefined;
  const calls = Array.isArray(raw.tool_calls) ? raw.tool_calls : [];
  const toolCalls = calls
    .map((c) => (isObj(c) ? toolCall(c, { input: "tool_input", response: "tool_response" }) : null))
    .filter((c): c is ClaudeToolCall => c !== null);
  return {
    ok: true,
    input: {
      event,
      session: str(raw.session_id) || "unknown-session",
      cwd: str(raw.cwd) || fallbackCwd,
      transcriptPath: str(raw.transcript_path),
      permissionMode: str(raw.permission_mode),
      tool,
      toolCalls,
      lastAssistantMessage: str(raw.last_assistant_message),
      stopHookActive: raw.stop_hook_active === true,
      agentId: str(raw.agent_id),
      source: str(raw.source),
      fromCursor: CURSOR_FIELDS.some((key) => raw[key] !== undefined)
        ? [
            ...(Array.isArray(raw.workspace_roots) ? raw.workspace_roots : []).filter(
              (r): r is string => typeof r === "string" && r !== "",
            ),
            str(raw.cwd) || fallbackCwd,
          ]
        : null,
    },
  };
}

/** MultiEdit is gone in 2.1.x; kept for older versions. */
export const EDIT_TOOLS = ["Write", "Edit", "MultiEdit", "NotebookEdit"] as const;

export const EDIT_TOOLS_MATCHER = EDIT_TOOLS.join("|");

/**
 * Tools that run shell commands and may write any file: Bash, and Skill, whose `!`
 * commands run as it loads. What they wrote is found after the call.
 */
export const SHELL_TOOLS = ["Bash", "Skill"] as const;

export function isShellTool(name: string): boolean {
  return (SHELL_TOOLS as readonly string[]).includes(name);
}

export const AFTER_TOOLS_MATCHER = [...EDIT_TOOLS, ...SHELL_TOOLS].join("|");

export function isEditTool(name: string): boolean {
  return (EDIT_TOOLS as readonly string[]).includes(name);
}

/** Absolute or as given; null when it edits none. */
export function editedPath(call: Pick<ClaudeToolCall, "toolName" | "toolInput">): string | null {
  if (!isEditTool(call.toolName)) return null;
  const key = call.toolName === "NotebookEdit" ? "notebook_path" : "file_path";
  const value = call.toolInput[key];
  return typeof value === "string" && value !== "" ? value : null;
}

/** From what the tool answered (an object in PostToolUse, a string in PostToolBatch). */
export function changeKind(call: ClaudeToolCall): ChangeKind {
  const r = call.toolResponse;
  if (typeof r === "string") return r.startsWith("File created") ? "created" : "modified";
  if (typeof r === "object" && r !== null && (r as { type?: unknown }).type === "create") {
    return "created";
  }
  return "modified";
}

/** PostToolBatch lists failed calls too: they changed nothing. */
function failedCall(call: ClaudeToolCall): boolean {
  const r = call.toolResponse;
  return typeof r === "string" && r.trimStart().startsWith("<tool_use_error>");
}

export function writtenFiles(calls: readonly ClaudeToolCall[]): WrittenFile[] {
  const out: WrittenFile[] = [];
  for (const call of calls) {
    const path = editedPath(call);
    if (path !== null && !failedCall(call)) out.push({ path, kind: changeKind(call) });
  }
  return out;
}

/** Any other event gets no output. */
const ANSWERED_EVENTS = [
  "PreToolUse",
  "PostToolUse",
  "PostToolBatch",
  "Stop",
  "SubagentStop",
  "SessionStart",
  "UserPromptSubmit",
];

function kindOf(input: ClaudeHookInput): HookEventKind {
  const edits = isEditTool(input.tool?.toolName ?? "");
  switch (input.event) {
    case "PreToolUse":
      return edits ? "pre-write" : "pre-tool";
    case "PostToolUse":
      return edits ? "post-write" : "post-tool";
    case "PostToolBatch":
      return "batch-end";
    case "Stop":
    case "SubagentStop":
      return "stop";
    case "SessionStart":
      return "session-start";
    default:
      return "prompt";
  }
}

/** null for an event cpilot does not answer. Batch files carry their call's id. */
export function claudeEvent(input: ClaudeHookInput): HookEvent | null {
  if (!ANSWERED_EVENTS.includes(input.event)) return null;
  const { tool } = input;
  const calls = tool === undefined ? input.toolCalls : [tool, ...input.toolCalls];
  const kind = kindOf(input);
  const event: HookEvent = {
    kind,
    name: input.event,
    session: input.session,
    cwd: input.cwd,
    written: calls.map(editedPath),
  };
  switch (kind) {
    case "pre-write": {
      const path = tool === undefined ? null : editedPath(tool);
      return path === null || tool === undefined
        ? event
        : { ...event, writes: [pendingWrite(tool, path, input)] };
    }
    case "post-write":
      return tool === undefined
        ? event
        : { ...event, edits: writtenFiles([tool]), callId: tool.toolUseId };
    case "post-tool": {
      const shell = isShellTool(tool?.toolName ?? "");
      const command = shell && tool !== undefined ? shellCommand(tool.toolInput) : undefined;
      return { ...event, shell, ...(command === undefined ? {} : { command }) };
    }
    case "batch-end":
      return { ...event, edits: input.toolCalls.flatMap(callEdits) };
    case "session-start":
      return input.source === undefined ? event : { ...event, source: input.source };
    case "prompt":
      return { ...event, turn: {} };
    case "stop":
      // A subagent's stop is held with its own limit, not the parent's.
      return input.event === "SubagentStop" && input.agentId
        ? { ...event, stopper: input.agentId }
        : event;
    default:
      return event;
  }
}

const callEdits = (call: ClaudeToolCall): WrittenFile[] =>
  writtenFiles([call]).map((file) => ({ ...file, callId: call.toolUseId }));

function pendingWrite(call: ClaudeToolCall, path: string, input: ClaudeHookInput): PendingWrite {
  const { toolName, toolInput } = call;
  const base = { tool: toolName, path, agent: "claude", session: input.session };
  if (toolName === "Write") {
    const content = str(toolInput.content);
    return content === undefined ? base : { ...base, content };
  }
  if (toolName === "Edit") {
    const { old_string, new_string, replace_all } = toolInput;
    return editWrite(base, {
      oldString: old_string,
      newString: new_string,
      replaceAll: replace_all === true,
    });
  }
  if (toolName === "MultiEdit") {
    const content = intendedMultiEdit(path, input.cwd, toolInput.edits);
    return content === null ? base : { ...base, content };
  }
  return base;
}

/** A payload without a cwd runs in the project, else the process's. */
export function parseClaudeHook(text: string, options: Parameters<HookHandler>[1]): ParsedInput {
  return parseHookInput(text, options.env.CLAUDE_PROJECT_DIR || options.cwd);
}

/** Where cpilot's Cursor hooks are installed, Cursor's call here is left to them: one edit runs cpilot once. */
export async function leftToCursor(
  input: ClaudeHookInput,
  options: Parameters<HookHandler>[1],
): Promise<boolean> {
  if (input.fromCursor === null) return false;
  const { cpilotInCursorHooks } = await import("../kit/cursor-hooks.ts");
  return cpilotInCursorHooks(input.fromCursor, options.env.HOME);
}

/** Failures as "block" (the only exit-0 form the model cannot miss), the rest as additionalContext. */
export function afterToolReply(event: HookEvent, answer: HookAnswer): HookReply {
  if (answer.failures.length > 0)
    return blockReply([...answer.failures, ...answer.info].join("\n\n"));
  if (answer.info.length > 0) return contextReply(event.name, answer.info.join("\n\n"));
  return NO_REPLY;
}

/**
 * When it does, the per-batch callbacks wait for it; when not, they run on every PostToolUse.
 * Decided without spawning anything (the hook path is hot): `AI_AGENT`'s version
 * (2.1.0+ has it), else the `.cpilot/claude-batch-event` marker written when one arrived.
 * Batch callbacks a PostToolUse ran are remembered per call, so a late PostToolBatch does
 * not run them twice.
 */
export function hasBatchEvent(root: string, env: NodeJS.ProcessEnv = process.env): boolean {
  const version = claudeVersionFromEnv(env);
  if (version !== null) return compareVersions(version, [2, 1, 0]) >= 0;
  return existsSync(markerPath(root));
}

export function markBatchEventSeen(root: string): void {
  if (existsSync(markerPath(root))) return;
  try {
    stateDir(root);
    // "wx": never through a planted (even dangling) symlink
    writeFileSync(markerPath(root), `${new Date().toISOString()}\n`, { flag: "wx" });
  } catch {
    // not written now: the next PostToolBatch tries again
  }
}

/** `[2, 1, 330]` from `AI_AGENT=claude-code_2-1-330_cli`, else null. */
export function claudeVersionFromEnv(env: NodeJS.ProcessEnv): [number, number, number] | null {
  const match = /^claude-code_(\d+)-(\d+)-(\d+)/.exec(env.AI_AGENT ?? "");
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : null;
}

export function parseClaudeVersion(text: string): [number, number, number] | null {
  const match = /(\d+)\.(\d+)\.(\d+)/.exec(text);
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : null;
}

export function compareVersions(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < 3; i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

function markerPath(root: string): string {
  return statePath(root, STATE.claudeBatchEvent);
}

/** Replies: JSON on stdout, exit 0 always (exit 1 is silently dropped, exit 2 ends the loop in PostToolBatch). */

export const NO_REPLY: HookReply = { json: null };

/** PostToolUse, PostToolBatch, SessionStart, UserPromptSubmit, PreToolUse. */
export function contextReply(event: string, text: string): HookReply {
  if (text === "") return NO_REPLY;
  return { json: { hookSpecificOutput: { hookEventName: event, additionalContext: text } } };
}

/** The edit happened; the model must read this and act on it. */
export function blockReply(reason: string): HookReply {
  return { json: { decision: "block", reason } };
}

export function permissionReply(options: {
  decision: "allow" | "deny" | "ask";
  reason: string;
  updatedInput?: Record<string, unknown>;
  additionalContext?: string;
  /** Shown to the person (a hint about which config key changes this). */
  systemMessage?: string;
}): HookReply {
  const out: Record<string, unknown> = {
    hookEventName: "PreToolUse",
    permissionDecision: options.decision,
    permissionDecisionReason: options.reason,
  };
  if (options.updatedInput !== undefined) out.updatedInput = options.updatedInput;
  if (options.additionalContext) out.additionalContext = options.additionalContext;
  const json: Record<string, unknown> = { hookSpecificOutput: out };
  if (options.systemMessage) json.systemMessage = options.systemMessage;
  return { json };
}

/** Block (the agent goes on with `reason`) or let it stop. */
export function stopReply(options: {
  block: boolean;
  reason?: string;
  systemMessage?: string;
}): HookReply {
  const json: Record<string, unknown> = {};
  if (options.block) {
    json.decision = "block";
    json.reason = options.reason ?? "";
  }
  if (options.systemMessage) json.systemMessage = options.systemMessage;
  return Object.keys(json).length === 0 ? NO_REPLY : { json };
}
