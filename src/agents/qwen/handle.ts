import { shellCommand } from "../../hook/hook-input.ts";
import { decisionBlockStop } from "../kit/stop-reply.ts";
import {
  hookSpecificContext,
  rewriteInsteadReason,
  toolHookHandler,
} from "../kit/tool-hook-handler.ts";
import { parseQwenInput, type QwenHookInput } from "./payload.ts";
import { qwenProtocol } from "./protocol.ts";
import {
  isQwenEditTool,
  isQwenShellTool,
  qwenChangeKind,
  qwenEditedPath,
  qwenPendingWrite,
  qwenToolFailed,
} from "./tools.ts";

/**
 * Qwen Code's translator, in the channels 0.24.4 was seen to hand the model. PostToolUse
 * answers with `additionalContext` (`decision: "block"` is ignored there); UserPromptSubmit
 * fires for each prompt and after each tool round. Qwen ignores `updatedInput` (and a
 * PreToolUse `additionalContext` beside an allow), so a plugin's rewrite is a deny that
 * says what to write. A turn starts at the first UserPromptSubmit of each prompt_id.
 */
export const handleQwenHook = toolHookHandler({
  agent: "qwen",
  protocol: qwenProtocol,
  parse: (stdin, options) => parseQwenInput(stdin, options.cwd),
  preTool: "PreToolUse",
  postTool: "PostToolUse",
  promptEvents: ["SessionStart", "UserPromptSubmit"],
  sessionStart: "SessionStart",
  isEditTool: isQwenEditTool,
  editedPath: (input) => qwenEditedPath(input.toolInput),
  pendingWrite: (input, path) =>
    qwenPendingWrite(input.toolName, path, input.toolInput, input.session),
  change: (input) =>
    qwenToolFailed(input.toolResponse) ? null : qwenChangeKind(input.toolResponse),
  deny: (reason) => qwenProtocol.denyForm(reason),
  modified: (_input, _config, decision) => ({
    json: qwenProtocol.denyForm(rewriteInsteadReason(decision, "so it did not run")),
  }),
  context: hookSpecificContext,
  stop: {
    event: "Stop",
    reply: decisionBlockStop,
    subagent: { event: "SubagentStop", id: (input) => input.agentId },
  },
  shell: {
    isShellTool: isQwenShellTool,
    turnStarts,
    command: (input) => shellCommand(input.toolInput),
  },
});

function turnStarts(input: QwenHookInput): { id?: string } | null {
  if (input.event !== "UserPromptSubmit") return null;
  return input.promptId === undefined ? {} : { id: input.promptId };
}
