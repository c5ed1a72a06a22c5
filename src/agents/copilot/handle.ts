import type { StopVerdict } from "../../hook/stop-gate.ts";
import { EMPTY_REPLY, type HookReply } from "../../model/hook.ts";
import { rewriteInsteadReason, toolHookHandler } from "../kit/tool-hook-handler.ts";
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
 * all as `additionalContext`; agentStop is the stop gate. Not used: `decision: "block"` on postToolUse (it replaces the
 * tool's output with the reason), `modifiedArgs` (ignored), `hookSpecificOutput`
 * (ignored). Exit 0 with JSON or nothing; never throws.
 */
export const handleCopilotHook = toolHookHandler({
  agent: "copilot",
  protocol: copilotProtocol,
  parse: (stdin, options) => parseCopilotInput(stdin, options.cwd),
  preTool: "preToolUse",
  postTool: "postToolUse",
  promptEvents: ["sessionStart", "userPromptSubmitted"],
  isEditTool: isCopilotEditTool,
  isShellTool: isCopilotShellTool,
  turnStart: ["userPromptSubmitted"],
  editedPath: (input) => copilotEditedPath(input.toolArgs),
  pendingWrite: (input, path) =>
    copilotPendingWrite(input.toolName, path, input.toolArgs, input.session),
  change: (input) =>
    copilotToolSucceeded(input.toolResult) ? copilotChangeKind(input.toolName) : null,
  deny: (reason) => copilotDeny(reason),
  // Copilot CLI ignores `modifiedArgs` (1.0.102, seen): the model must write it itself.
  modified: (_input, _config, decision) => ({
    json: copilotDeny(
      rewriteInsteadReason(
        decision,
        "and Copilot CLI cannot apply a changed call, so it did not run",
      ),
    ),
  }),
  // Copilot CLI reads a top-level `additionalContext` (it ignores `hookSpecificOutput`).
  context: (_event, text) => ({ json: { additionalContext: text } }),
  waitingOnOtherTools: true,
  stop: { event: "agentStop", reply: copilotStopReply },
});

/** agentStop takes `decision: "block"` and `reason` only: the reason is the model's next prompt. */
function copilotStopReply(verdict: StopVerdict): HookReply {
  if (verdict.block) return { json: { decision: "block", reason: verdict.reason } };
  return verdict.notes === null ? EMPTY_REPLY : { json: null, stderr: verdict.notes };
}
