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
import { configErrorForModel, emptyConfig, loadHookConfig } from "../../hook/config.ts";
import { gateEdit, gateFailedReason } from "../../hook/edit-gate.ts";
import { pathInRoot } from "../../hook/root-path.ts";
import { unreadableInputReply } from "../../hook/unreadable-input.ts";
import type { ChangeKind } from "../../model/batch.ts";
import type { GateDecision, PendingWrite } from "../../model/gate-types.ts";
import type { AgentProtocol, HookHandler } from "../../model/hook.ts";
import { EMPTY_REPLY, type HookReply } from "../../model/hook.ts";
import { renderCallbacksPanel } from "../../ui/agent/callbacks-panel.ts";

/** What every such agent's payload reader yields. */
export interface ToolHookInput {
  readonly event: string;
  readonly session: string;
  readonly cwd: string;
  readonly toolName: string;
}

type Parsed<I> = { ok: true; input: I } | { ok: false; error: string };

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
}

/** The agent's handler, built from its spec. Exit 0 with JSON or nothing; never throws. */
export function toolHookHandler<I extends ToolHookInput>(spec: ToolHookSpec<I>): HookHandler {
  return async (stdin, options) => {
    const parsed = spec.parse(stdin, options);
    if (!parsed.ok) return unreadableInputReply(spec.protocol, stdin, parsed.error);
    const { input } = parsed;
    if (spec.promptEvents.includes(input.event)) return promptContext(spec, input, true);
    if (input.event !== spec.preTool && input.event !== spec.postTool) return EMPTY_REPLY;
    if (!spec.isEditTool(input.toolName)) {
      const waiting = spec.waitingOnOtherTools && input.event === spec.postTool;
      return waiting ? promptContext(spec, input, false) : EMPTY_REPLY;
    }
    return editCall(spec, input);
  };
}

async function editCall<I extends ToolHookInput>(spec: ToolHookSpec<I>, input: I) {
  const pre = input.event === spec.preTool;
  const loaded = await loadHookConfig(input.cwd, [spec.editedPath(input)]);
  if (loaded.kind === "none") return EMPTY_REPLY;
  try {
    if (loaded.kind === "error") {
      const stderr = `cpilot: ${loaded.message}`;
      if (pre)
        return {
          ...(await preTool(spec, input, await emptyConfig(loaded))),
          stderr,
        };
      const text = configErrorForModel(loaded.root, input.session, loaded.message);
      return { ...(text === null ? EMPTY_REPLY : spec.context(input.event, text)), stderr };
    }
    return pre
      ? await preTool(spec, input, loaded.config)
      : await postTool(spec, input, loaded.config);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const stderr = `cpilot: internal error in the ${input.event} hook (please report it): ${message}`;
    if (pre) return { json: spec.deny(gateFailedReason(message)), stderr };
    return { json: null, stderr };
  }
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
  config: ResolvedConfig,
): Promise<HookReply> {
  const path = spec.editedPath(input);
  const rel = path === null ? null : pathInRoot(config.root, input.cwd, path);
  const kind = rel === null ? null : spec.change(input);
  const files = rel !== null && kind !== null ? [{ path: rel, kind }] : [];
  const report = await afterEdits({ config, agent: spec.agent, session: input.session, files });
  const text = reportText(report);
  return text === "" ? EMPTY_REPLY : spec.context(input.event, text);
}

/**
 * Once per session the table of active callbacks (with `announce`, on prompt events), and
 * each time the results that waited in the inbox (background runs that finished after the
 * last edit).
 */
async function promptContext<I extends ToolHookInput>(
  spec: ToolHookSpec<I>,
  input: I,
  announce: boolean,
): Promise<HookReply> {
  const loaded = await loadHookConfig(input.cwd);
  if (loaded.kind !== "ok") return EMPTY_REPLY;
  const { config } = loaded;
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
