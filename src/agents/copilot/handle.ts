import { claimOnce } from "../../agent-session/session-state.ts";
import { agentSettings } from "../../config/agent-settings.ts";
import type { ResolvedConfig } from "../../config/resolve.ts";
import type { GateDecision } from "../../model/gate-types.ts";
import { takeDelivery } from "../../session/notices.ts";
import { renderCallbacksPanel } from "../../ui/agent/callbacks-panel.ts";
import { afterEdits, reportText } from "../kit/after-edits.ts";
import { gateEdit, gateFailedReason } from "../kit/edit-gate.ts";
import { configErrorForModel, emptyConfig, loadHookConfig } from "../kit/hook-config.ts";
import { EMPTY_REPLY, type HookReply } from "../kit/hook-reply.ts";
import { pathInRoot } from "../kit/root-path.ts";
import { unreadableInputReply } from "../kit/unreadable-input.ts";
import { type CopilotHookInput, parseCopilotInput } from "./payload.ts";
import { copilotDeny, copilotProtocol } from "./protocol.ts";
import {
  copilotChangeKind,
  copilotEditedPath,
  copilotPendingWrite,
  copilotToolSucceeded,
  isCopilotEditTool,
} from "./tools.ts";

/**
 * Answer one GitHub Copilot CLI hook call, in the channels 1.0.102 was seen to hand the
 * model: preToolUse on create/edit is the write gate (`permissionDecision: "deny"`, whose
 * reason becomes the tool's result); postToolUse runs the callbacks and answers with a
 * top-level `additionalContext`, which Copilot appends to the tool's own output;
 * sessionStart brings the callbacks table and userPromptSubmitted (and postToolUse of any
 * other tool) the results that waited, all as `additionalContext`. Not used: `decision: "block"` on postToolUse (it replaces
 * the tool's output with the reason), `modifiedArgs` (ignored), `hookSpecificOutput`
 * (ignored). Exit 0 with JSON or nothing; never throws.
 */
export async function handleCopilotHook(
  stdin: string,
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<HookReply> {
  const parsed = parseCopilotInput(stdin, options.cwd);
  if (!parsed.ok) return unreadableInputReply(copilotProtocol, stdin, parsed.error);
  const { input } = parsed;
  if (input.event === "sessionStart" || input.event === "userPromptSubmitted")
    return promptContext(input);
  if (input.event !== "preToolUse" && input.event !== "postToolUse") return EMPTY_REPLY;
  if (!isCopilotEditTool(input.toolName))
    return input.event === "postToolUse" ? waitingResults(input) : EMPTY_REPLY;
  const loaded = await loadHookConfig(input.cwd);
  if (loaded.kind === "none") return EMPTY_REPLY;
  try {
    if (loaded.kind === "error") {
      const stderr = `cpilot: ${loaded.message}`;
      if (input.event === "preToolUse")
        return {
          ...(await preToolUse(input, await emptyConfig(loaded.root, loaded.message))),
          stderr,
        };
      const text = configErrorForModel(loaded.root, input.session, loaded.message);
      return { ...(text === null ? EMPTY_REPLY : contextReply(text)), stderr };
    }
    return input.event === "preToolUse"
      ? await preToolUse(input, loaded.config)
      : await postToolUse(input, loaded.config);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const stderr = `cpilot: internal error in the ${input.event} hook (please report it): ${message}`;
    if (input.event === "preToolUse")
      return { json: copilotDeny(gateFailedReason(message)), stderr };
    return { json: null, stderr };
  }
}

async function preToolUse(input: CopilotHookInput, config: ResolvedConfig): Promise<HookReply> {
  const path = copilotEditedPath(input.toolArgs);
  if (path === null) return EMPTY_REPLY;
  const write = copilotPendingWrite(input.toolName, path, input.toolArgs, input.session);
  const decision = await gateEdit(copilotProtocol, config, write);
  if (decision.decision === "deny") return { json: copilotDeny(decision.reason) };
  if (decision.modified === undefined) return EMPTY_REPLY;
  // Copilot CLI ignores `modifiedArgs` (1.0.102, seen): the model must write it itself.
  return { json: copilotDeny(rewriteInstead(decision)) };
}

/** The deny reason when a plugin wants the write changed and the agent cannot take a changed call. */
function rewriteInstead(decision: GateDecision): string {
  const summary = decision.modified?.summary ?? "(no summary)";
  const content =
    decision.content === undefined
      ? ""
      : `\nWrite the file ${decision.path} with exactly this content instead:\n${decision.content}`;
  return `cpilot's write gate wants this write changed, and Copilot CLI cannot apply a changed call, so it did not run. What the plugin changed:\n${summary}${content}`;
}

async function postToolUse(input: CopilotHookInput, config: ResolvedConfig): Promise<HookReply> {
  const path = copilotEditedPath(input.toolArgs);
  const rel = path === null ? null : pathInRoot(config.root, input.cwd, path);
  const changed = rel !== null && copilotToolSucceeded(input.toolResult);
  const files = changed ? [{ path: rel, kind: copilotChangeKind(input.toolName) }] : [];
  const report = await afterEdits({ config, agent: "copilot", session: input.session, files });
  const text = reportText(report);
  return text === "" ? EMPTY_REPLY : contextReply(text);
}

/**
 * sessionStart and userPromptSubmitted (Copilot fires the latter for each prompt): once per
 * session the table of active callbacks, and each time the results that waited in the inbox
 * (background runs that finished after the last edit).
 */
async function promptContext(input: CopilotHookInput): Promise<HookReply> {
  const loaded = await loadHookConfig(input.cwd);
  if (loaded.kind !== "ok") return EMPTY_REPLY;
  const { config } = loaded;
  const parts: string[] = [];
  if (agentSettings(config.source.agent).announceCallbacks) {
    const panel = renderCallbacksPanel(config);
    if (panel !== null && claimOnce(config.root, input.session, "announce")) parts.push(panel);
  }
  const waiting = takeDelivery(config.root, input.session);
  parts.push(...waiting.failing, ...waiting.info);
  return parts.length === 0 ? EMPTY_REPLY : contextReply(parts.join("\n\n"));
}

/**
 * postToolUse of any other tool: the results that waited (a background run that finished
 * since), so they reach the model with the next tool call, whatever it is.
 */
async function waitingResults(input: CopilotHookInput): Promise<HookReply> {
  const loaded = await loadHookConfig(input.cwd);
  if (loaded.kind !== "ok") return EMPTY_REPLY;
  const waiting = takeDelivery(loaded.config.root, input.session);
  const parts = [...waiting.failing, ...waiting.info];
  return parts.length === 0 ? EMPTY_REPLY : contextReply(parts.join("\n\n"));
}

/** Copilot CLI reads a top-level `additionalContext` (it ignores `hookSpecificOutput`). */
function contextReply(text: string): HookReply {
  return { json: { additionalContext: text } };
}
