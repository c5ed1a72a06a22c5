import { postNotice } from "../../agent-session/inbox.ts";
import { modifiedNote } from "../../hook/edit-gate.ts";
import { EMPTY_REPLY, type HookReply, type StopVerdict } from "../../model/hook.ts";
import { rewriteInsteadReason, toolHookHandler } from "../kit/tool-hook-handler.ts";
import { copilotModifiedArgs, writtenNote } from "./modified-args.ts";
import { parseCopilotInput } from "./payload.ts";
import { copilotDeny, copilotProtocol } from "./protocol.ts";
import {
  copilotChangeKind,
  copilotEditedPath,
  copilotPendingWrite,
  copilotToolSucceeded,
  isCopilotEditTool,
  isCopilotShellTool,
} from "./tools.ts";

/**
 * Answer one GitHub Copilot CLI hook call, in the channels 1.0.102 was seen to hand the
 * model: preToolUse on create/edit is the write gate (`permissionDecision: "deny"`, whose
 * reason becomes the tool's result); postToolUse runs the callbacks and answers with a
 * top-level `additionalContext`, which Copilot appends to the tool's own output;
 * sessionStart brings the callbacks table and userPromptSubmitted (and postToolUse of any
 * other tool, so they reach the model with the next tool call) the results that waited,
 * all as `additionalContext`; agentStop is the stop gate, subagentStop a subagent's (its own count). A write-gate plugin's change goes
 * in through preToolUse's `modifiedArgs`, which Copilot applies. After bash (and its
 * companions), what the shell changed is checked like an edit. Not used: `decision:
 * "block"` on postToolUse (it replaces the tool's output with the reason),
 * `hookSpecificOutput` (ignored). Exit 0 with JSON or nothing; never throws.
 */
export const handleCopilotHook = toolHookHandler({
  agent: "copilot",
  protocol: copilotProtocol,
  parse: (stdin, options) => parseCopilotInput(stdin, options.cwd),
  preTool: "preToolUse",
  postTool: "postToolUse",
  promptEvents: ["sessionStart", "userPromptSubmitted"],
  sessionStart: "sessionStart",
  isEditTool: isCopilotEditTool,
  shell: {
    isShellTool: isCopilotShellTool,
    turnStarts: (input) => (input.event === "userPromptSubmitted" ? {} : null),
  },
  editedPath: (input) => copilotEditedPath(input.toolArgs),
  pendingWrite: (input, path) =>
    copilotPendingWrite(input.toolName, path, input.toolArgs, input.session),
  change: (input) =>
    copilotToolSucceeded(input.toolResult) ? copilotChangeKind(input.toolName) : null,
  deny: (reason) => copilotDeny(reason),
  // Copilot CLI applies `modifiedArgs` (1.0.102, seen) but tells the model nothing: the
  // note of what was written comes with this call's postToolUse.
  modified: (input, config, decision) => {
    const args = copilotModifiedArgs(input.toolName, input.toolArgs, decision);
    if (args === null)
      return {
        json: copilotDeny(
          rewriteInsteadReason(
            decision,
            "and this edit cannot carry the whole file (it is missing or empty), so it did not run; use create",
          ),
        ),
      };
    const note = `${modifiedNote(input.toolName, decision)}\n${writtenNote(decision)}`;
    postNotice(config.root, input.session, { kind: "gate-modified", text: note });
    // No permissionDecision: the person's own permission rules still decide whether it runs.
    return { json: { modifiedArgs: args } };
  },
  // Copilot CLI reads a top-level `additionalContext` (it ignores `hookSpecificOutput`).
  context: (_event, text) => ({ json: { additionalContext: text } }),
  waitingOnOtherTools: true,
  stop: {
    event: "agentStop",
    reply: copilotStopReply,
    subagent: { event: "subagentStop", id: (input) => input.agentId },
  },
});

/** agentStop takes `decision: "block"` and `reason` only: the reason is the model's next prompt. */
function copilotStopReply(verdict: StopVerdict): HookReply {
  if (verdict.block) return { json: { decision: "block", reason: verdict.reason } };
  return verdict.notes === null ? EMPTY_REPLY : { json: null, stderr: verdict.notes };
}
