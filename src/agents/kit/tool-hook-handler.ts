/**
 * The hook handler of the agents that hook one edit tool call at a time with Claude Code's
 * shape of events (Gemini CLI, Qwen Code, Copilot CLI): a pre-tool event is the write gate,
 * a post-tool event runs the callbacks, prompt events bring the callbacks table and the
 * results that waited. What differs per agent is data and small functions (event names,
 * tool fields, answer channels): the agent's `ToolHookSpec`.
 */

import { takeDelivery } from "../../agent-session/notices.ts";
import { claimOnce } from "../../agent-session/session-state.ts";
import { agentSettings } from "../../config/agent-settings.ts";
import type { ResolvedConfig } from "../../config/resolve.ts";
import { afterEdits, reportText } from "../../hook/after-edits.ts";
import { hookHandler, type Parsed } from "../../hook/call.ts";
import { gateEdit } from "../../hook/edit-gate.ts";
import { pathInRoot } from "../../hook/root-path.ts";
import type { ShellCall } from "../../hook/shell-check.ts";
import type { StopVerdict } from "../../hook/stop-gate.ts";
import type { ChangeKind } from "../../model/batch.ts";
import type { GateDecision, PendingWrite } from "../../model/gate-types.ts";
import {
  type AgentProtocol,
  EMPTY_REPLY,
  type HookEvent,
  type HookHandler,
  type HookReply,
} from "../../model/hook.ts";
import { renderCallbacksPanel } from "../../ui/agent/callbacks-panel.ts";

/** What every such agent's payload reader yields. */
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
  /** The event names: before and after a tool call, and those that bring waiting results. */
  readonly preTool: string;
  readonly postTool: string;
  readonly promptEvents: readonly string[];
  readonly isEditTool: (toolName: string) => boolean;
  /** The file the call writes, as the tool names it; null when it names none. */
  readonly editedPath: (input: I) => string | null;
  readonly pendingWrite: (input: I, path: string) => PendingWrite;
  /** How the call changed its file; null when the tool reported a failure. */
  readonly change: (input: I) => ChangeKind | null;
  /** The pre-tool deny, in the agent's channel to the model. */
  readonly deny: (reason: string, hint?: string) => Record<string, unknown>;
  /** The answer when a write-gate plugin wants the write changed. */
  readonly modified: (input: I, config: ResolvedConfig, decision: GateDecision) => HookReply;
  /** Text for the model, answered to `event`. */
  readonly context: (event: string, text: string) => HookReply;
  /** Whether the post-tool event of any other tool brings the results that waited. */
  readonly waitingOnOtherTools?: boolean;
  /** The event fired when the agent would finish, and the stop gate's verdict in its reply. */
  readonly stop?: { readonly event: string; readonly reply: (verdict: StopVerdict) => HookReply };
  /**
   * Edits through the agent's shell: its shell tools (what changed after one is checked like
   * an edit), and whether a prompt event starts the agent's turn (the project's files are
   * recorded then: what they hold is the person's, not the agent's).
   */
  readonly shell?: {
    readonly isShellTool: (toolName: string) => boolean;
    readonly turnStarts: (input: I, config: ResolvedConfig) => boolean;
  };
}

/** The agent's handler, built from its spec. Exit 0 with JSON or nothing; never throws. */
export function toolHookHandler<I extends ToolHookInput>(spec: ToolHookSpec<I>): HookHandler {
  return hookHandler<I>({
    protocol: spec.protocol,
    nothing: EMPTY_REPLY,
    parse: spec.parse,
    event: (input) => toolEvent(spec, input),
    answer: async (input, event, config) => {
      const shell = { config, agent: spec.agent, session: input.session };
      if (event.kind === "pre-write") return preTool(spec, input, config);
      if (event.kind === "post-write") return postTool(spec, input, shell);
      if (event.kind === "stop" && spec.stop !== undefined)
        return stopAnswer(spec, spec.stop.reply, shell);
      if (event.kind === "post-tool" && spec.shell?.isShellTool(input.toolName))
        return shellPostTool(spec, input, shell);
      if (event.kind === "prompt" && spec.shell?.turnStarts(input, config))
        await (await import("../../hook/shell-check.ts")).shellTurnStarts(shell);
      return promptContext(spec, input, config, event.kind === "prompt");
    },
    tell: (input, event) =>
      event.kind === "post-write" ? (text) => spec.context(input.event, text) : null,
  });
}

/** The call as a HookEvent: an edit tool's pre and post events, and those that bring waiting results. */
function toolEvent<I extends ToolHookInput>(spec: ToolHookSpec<I>, input: I): HookEvent | null {
  const at = { name: input.event, session: input.session, cwd: input.cwd };
  if (spec.promptEvents.includes(input.event)) return { ...at, kind: "prompt", written: [] };
  if (input.event === spec.stop?.event) return { ...at, kind: "stop", written: [] };
  if (input.event !== spec.preTool && input.event !== spec.postTool) return null;
  const pre = input.event === spec.preTool;
  if (!spec.isEditTool(input.toolName)) {
    const waiting = (spec.waitingOnOtherTools || spec.shell?.isShellTool(input.toolName)) && !pre;
    return waiting ? { ...at, kind: "post-tool", written: [] } : null;
  }
  return { ...at, kind: pre ? "pre-write" : "post-write", written: [spec.editedPath(input)] };
}

async function preTool<I extends ToolHookInput>(
  spec: ToolHookSpec<I>,
  input: I,
  config: ResolvedConfig,
): Promise<HookReply> {
  const path = spec.editedPath(input);
  if (path === null) return EMPTY_REPLY;
  const decision = await gateEdit(spec.protocol, config, spec.pendingWrite(input, path), input.cwd);
  if (decision.decision === "deny") return { json: spec.deny(decision.reason, decision.hint) };
  if (decision.modified === undefined) return EMPTY_REPLY;
  return spec.modified(input, config, decision);
}

async function postTool<I extends ToolHookInput>(
  spec: ToolHookSpec<I>,
  input: I,
  shell: ShellCall,
): Promise<HookReply> {
  const { config } = shell;
  const path = spec.editedPath(input);
  const rel = path === null ? null : pathInRoot(config.root, input.cwd, path);
  const kind = rel === null ? null : spec.change(input);
  const files = rel !== null && kind !== null ? [{ path: rel, kind }] : [];
  // afterEdits also notes the file in the record of the project's files, once.
  const report = await afterEdits({ config, agent: spec.agent, session: input.session, files });
  const text = reportText(report);
  return text === "" ? EMPTY_REPLY : spec.context(input.event, text);
}

/** After a shell call: what it changed, checked like an edit, with the results that waited. */
async function shellPostTool<I extends ToolHookInput>(
  spec: ToolHookSpec<I>,
  input: I,
  shell: ShellCall,
): Promise<HookReply> {
  const { shellToolReport } = await import("../../hook/shell-check.ts");
  const text = reportText(await shellToolReport(shell));
  return text === "" ? EMPTY_REPLY : spec.context(input.event, text);
}

async function stopAnswer<I extends ToolHookInput>(
  spec: ToolHookSpec<I>,
  reply: (verdict: StopVerdict) => HookReply,
  shell: ShellCall,
): Promise<HookReply> {
  if (spec.shell !== undefined)
    return reply(await (await import("../../hook/shell-check.ts")).shellStopGate(shell));
  // Loaded only at a stop: it re-runs checks, which no other call does.
  const { stopGate } = await import("../../hook/stop-gate.ts");
  return reply(await stopGate(shell));
}

/**
 * Once per session the table of active callbacks (with `announce`, on prompt events) and
 * the check of the project in the background that gives the first edit its before (on the
 * first prompt event: these agents' session start, or their first prompt where they have no
 * such event), and each time the results that waited in the inbox (background runs that
 * finished after the last edit).
 */
async function promptContext<I extends ToolHookInput>(
  spec: ToolHookSpec<I>,
  input: I,
  config: ResolvedConfig,
  announce: boolean,
): Promise<HookReply> {
  // detached and once per session: never delays this answer (see base-check.ts)
  if (announce)
    (await import("../../agent-session/base-check.ts")).startBaseCheck(config, input.session);
  const parts: string[] = [];
  if (announce && agentSettings(config.source.agent).announceCallbacks) {
    const panel = renderCallbacksPanel(config);
    if (panel !== null && claimOnce(config.root, input.session, "announce")) parts.push(panel);
  }
  const waiting = takeDelivery(config.root, input.session);
  parts.push(...waiting.failing, ...waiting.info);
  return parts.length === 0 ? EMPTY_REPLY : spec.context(input.event, parts.join("\n\n"));
}

/** Claude Code's schema of context: `hookSpecificOutput.additionalContext` for `event`. */
export function hookSpecificContext(event: string, text: string): HookReply {
  return { json: { hookSpecificOutput: { hookEventName: event, additionalContext: text } } };
}

/**
 * The deny reason when a plugin wants the write changed and the agent cannot take a changed
 * call: the model must write it itself.
 */
export function rewriteInsteadReason(decision: GateDecision, why: string): string {
  const summary = decision.modified?.summary ?? "(no summary)";
  const content =
    decision.content === undefined
      ? ""
      : `\nWrite the file ${decision.path} with exactly this content instead:\n${decision.content}`;
  return `cpilot's write gate wants this write changed, ${why}. What the plugin changed:\n${summary}${content}`;
}
