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
 * Answer one Qwen Code hook call, in the channels 0.24.4 was seen to hand the model:
 * PreToolUse on write_file/edit is the write gate (a deny's reason becomes the tool's
 * result); PostToolUse runs the callbacks and answers with `additionalContext`, appended to
 * the tool's output (`decision: "block"` / `reason` are ignored there); SessionStart brings
 * the callbacks table and UserPromptSubmit (fired for each prompt and after each tool
 * round) the results that waited; Stop is the stop gate (`decision: "block"` makes the
 * model go on with the reason as a new turn), and SubagentStop a subagent's, with its own
 * count of held stops. Qwen ignores `updatedInput` (and a PreToolUse
 * `additionalContext` beside an allow; both seen), so a plugin's rewrite is a deny that says
 * what to write. A shell call's changes are found by comparing the project's files with the
 * turn's start: the first UserPromptSubmit of each prompt_id. Never throws.
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
  shell: { isShellTool: isQwenShellTool, turnStarts },
});

/** The person's prompt starts a turn; a tool round re-fires UserPromptSubmit with its prompt_id. */
function turnStarts(input: QwenHookInput): { id?: string } | null {
  if (input.event !== "UserPromptSubmit") return null;
  return input.promptId === undefined ? {} : { id: input.promptId };
}
