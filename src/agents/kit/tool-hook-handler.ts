/**
 * The translator of agents that hook one edit tool call at a time with Claude Code's shape
 * of events (Gemini CLI, Qwen Code, Copilot CLI). What differs per agent is data and small
 * functions: its `ToolHookSpec`.
 */

import type { ResolvedConfig } from "../../config/resolve.ts";
import { reportText } from "../../hook/after-edits.ts";
import { hookHandler, type Parsed } from "../../hook/call.ts";
import type { ChangeKind } from "../../model/batch.ts";
import type { GateDecision, PendingWrite } from "../../model/gate-types.ts";
import {
  type AgentProtocol,
  EMPTY_REPLY,
  type HookEvent,
  type HookHandler,
  type HookReply,
  type StopVerdict,
} from "../../model/hook.ts";

export interface ToolHookInput {
  readonly event: string;
  readonly session: string;
  readonly cwd: string;
  readonly toolName: string;
}

export interface ToolHookSpec<I extends ToolHookInput> {
  readonly agent: string;
  readonly protocol: AgentProtocol;
  readonly parse: (stdin: string, options: Parameters<HookHandler>[1]) => Parsed<I>;
  readonly preTool: string;
  readonly postTool: string;
  readonly promptEvents: readonly string[];
  readonly isEditTool: (toolName: string) => boolean;
  /** The file the call writes, as the tool names it; null when it names none. */
  readonly editedPath: (input: I) => string | null;
  readonly pendingWrite: (input: I, path: string) => PendingWrite;
  /** null when the tool reported a failure. */
  readonly change: (input: I) => ChangeKind | null;
  readonly deny: (reason: string, hint?: string) => Record<string, unknown>;
  readonly modified: (input: I, config: ResolvedConfig, decision: GateDecision) => HookReply;
  readonly context: (event: string, text: string) => HookReply;
  /** Whether any other tool's post-tool event brings the results that waited. */
  readonly waitingOnOtherTools?: boolean;
  /** `subagent`: a subagent's stop event, with its own count of held stops. */
  readonly stop?: {
    readonly event: string;
    readonly reply: (verdict: StopVerdict) => HookReply;
    readonly subagent?: { readonly event: string; readonly id: (input: I) => string | undefined };
  };
  readonly sessionStart?: string;
  /**
   * Its shell tools (what changed after one is checked like an edit), and the prompt event
   * that starts a turn (the project's files are recorded then), named when it fires again
   * within one turn.
   */
  readonly shell?: {
    readonly isShellTool: (toolName: string) => boolean;
    readonly turnStarts: (input: I) => { readonly id?: string } | null;
    /** The shell call's command text, when the payload names one. */
    readonly command?: (input: I) => string | undefined;
  };
}

/** Exit 0 with JSON or nothing; never throws. */
export function toolHookHandler<I extends ToolHookInput>(spec: ToolHookSpec<I>): HookHandler {
  return hookHandler<I>({
    agent: spec.agent,
    protocol: spec.protocol,
    nothing: EMPTY_REPLY,
    parse: spec.parse,
    event: (input) => toolEvent(spec, input),
    gateReply: (input, _event, verdict, config) => {
      if (verdict.kind === "deny") return { json: spec.deny(verdict.reason, verdict.hint) };
      const change = verdict.kind === "modify" ? verdict.changes[0] : undefined;
      return change === undefined ? EMPTY_REPLY : spec.modified(input, config, change.decision);
    },
    // Failures come under a heading; the results that waited after a tool that wrote nothing, as
    // they came.
    afterTool: (event, answer) => {
      const text =
        event.kind === "post-tool" && event.shell !== true
          ? [...answer.failures, ...answer.info].join("\n\n")
          : reportText(answer);
      return text === "" ? EMPTY_REPLY : spec.context(event.name, text);
    },
    context: (event) => (text) => spec.context(event.name, text),
    stopReply: (_event, verdict) => spec.stop?.reply(verdict) ?? EMPTY_REPLY,
    tell: (input, event) =>
      event.kind === "post-write" ? (text) => spec.context(input.event, text) : null,
  });
}

function toolEvent<I extends ToolHookInput>(spec: ToolHookSpec<I>, input: I): HookEvent | null {
  const at = { name: input.event, session: input.session, cwd: input.cwd, written: [] };
  if (spec.promptEvents.includes(input.event)) {
    const kind = input.event === spec.sessionStart ? "session-start" : "prompt";
    const turn = spec.shell?.turnStarts(input);
    return { ...at, kind, ...(turn === undefined || turn === null ? {} : { turn }) };
  }
  if (input.event === spec.stop?.event) return { ...at, kind: "stop" };
  if (input.event === spec.stop?.subagent?.event)
    return { ...at, kind: "stop", stopper: spec.stop.subagent.id(input) ?? "unknown-subagent" };
  if (input.event !== spec.preTool && input.event !== spec.postTool) return null;
  const pre = input.event === spec.preTool;
  const shell = spec.shell?.isShellTool(input.toolName) === true;
  if (!spec.isEditTool(input.toolName)) {
    const waiting = (spec.waitingOnOtherTools || shell) && !pre;
    const command = shell && !pre ? spec.shell?.command?.(input) : undefined;
    if (!waiting) return null;
    return { ...at, kind: "post-tool", shell, ...(command === undefined ? {} : { command }) };
  }
  const path = spec.editedPath(input);
  if (pre) {
    const writes = path === null ? [] : [spec.pendingWrite(input, path)];
    return { ...at, kind: "pre-write", written: [path], writes };
  }
  const kind = path === null ? null : spec.change(input);
  const edits = path !== null && kind !== null ? [{ path, kind }] : [];
  return { ...at, kind: "post-write", written: [path], edits };
}

export function hookSpecificContext(event: string, text: string): HookReply {
  return { json: { hookSpecificOutput: { hookEventName: event, additionalContext: text } } };
}

/** The agent cannot take a changed call: the model must write it itself. */
export function rewriteInsteadReason(decision: GateDecision, why: string): string {
  const summary = decision.modified?.summary ?? "(no summary)";
  const content =
    decision.content === undefined
      ? ""
      : `\nWrite the file ${decision.path} with exactly this content instead:\n${decision.content}`;
  return `cpilot's write gate wants this write changed, ${why}. What the plugin changed:\n${summary}${content}`;
}
