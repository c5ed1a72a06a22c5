import { postNotice } from "../../agent-session/inbox.ts";
import { modifiedNote } from "../../hook/edit-gate.ts";
import { shellCommand } from "../../hook/hook-input.ts";
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
 * Copilot CLI's translator, in the channels 1.0.102 was seen to hand the model: a
 * preToolUse deny's reason becomes the tool's result; a top-level `additionalContext` is
 * appended to the tool's output (postToolUse) or given at sessionStart and
 * userPromptSubmitted; agentStop and subagentStop are stop gates. A plugin's change goes
 * in through preToolUse's `modifiedArgs`. Not used: postToolUse's `decision: "block"`
 * (replaces the tool's output), `hookSpecificOutput` (ignored).
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
    command: (input) => shellCommand(input.toolArgs),
  },
  editedPath: (input) => copilotEditedPath(input.toolArgs),
  pendingWrite: (input, path) =>
    copilotPendingWrite(input.toolName, path, input.toolArgs, input.session),
  change: (input) =>
    copilotToolSucceeded(input.toolResult) ? copilotChangeKind(input.toolName) : null,
  deny: (reason) => copilotDeny(reason),
  // Copilot applies `modifiedArgs` but tells the model nothing: the note comes with postToolUse.
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
