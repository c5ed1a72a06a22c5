import { postNotice } from "../../agent-session/inbox.ts";
import { modifiedNote } from "../../hook/edit-gate.ts";
import { shellCommand } from "../../hook/hook-input.ts";
import type { HookReply } from "../../model/hook.ts";
import { decisionBlockStop } from "../kit/stop-reply.ts";
import { hookSpecificContext, toolHookHandler } from "../kit/tool-hook-handler.ts";
import { parseGeminiInput } from "./payload.ts";
import { geminiProtocol } from "./protocol.ts";
import {
  geminiChangeKind,
  geminiEditedPath,
  geminiPendingWrite,
  geminiToolFailed,
  geminiUpdatedInput,
  isGeminiEditTool,
  isGeminiShellTool,
} from "./tools.ts";

function denyReply(reason: string, hint?: string): Record<string, unknown> {
  return {
    decision: "deny",
    reason,
    ...(hint ? { systemMessage: `cpilot gate: ${reason}\nhint: ${hint}` } : {}),
  };
}

/**
 * Gemini CLI's translator. A BeforeTool deny becomes the tool's error; a change goes in as
 * `hookSpecificOutput.tool_input`. AfterTool context is appended to the tool result;
 * BeforeAgent (each prompt) adds context to the prompt; AfterAgent's `decision: "block"`
 * sends the reason as the next prompt.
 */
export const handleGeminiHook = toolHookHandler({
  agent: "gemini",
  protocol: geminiProtocol,
  parse: (stdin, options) => parseGeminiInput(stdin, options.env.GEMINI_PROJECT_DIR || options.cwd),
  preTool: "BeforeTool",
  postTool: "AfterTool",
  promptEvents: ["BeforeAgent"],
  isEditTool: isGeminiEditTool,
  editedPath: (input) => geminiEditedPath(input.toolInput),
  pendingWrite: (input, path) =>
    geminiPendingWrite(input.toolName, path, input.toolInput, input.session),
  change: (input) =>
    geminiToolFailed(input.toolResponse) ? null : geminiChangeKind(input.toolResponse),
  deny: denyReply,
  modified(input, config, decision): HookReply {
    const updated = geminiUpdatedInput(input.toolName, decision);
    const summary = decision.modified?.summary ?? "(no summary)";
    if (updated === null) {
      return {
        json: denyReply(
          `A write-gate plugin wants this file written differently, but the file is missing or empty, so a replace cannot carry it. Use write_file with the whole file instead. What the plugin changed:\n${summary}`,
        ),
      };
    }
    // BeforeTool has no channel to the model: the note comes with this call's AfterTool.
    const note = modifiedNote(input.toolName, decision);
    postNotice(config.root, input.session, { kind: "gate-modified", text: note });
    return {
      json: {
        hookSpecificOutput: { hookEventName: "BeforeTool", tool_input: updated },
        systemMessage: `cpilot gate: ${summary}`,
      },
    };
  },
  context: hookSpecificContext,
  stop: { event: "AfterAgent", reply: decisionBlockStop },
  // BeforeAgent fires once per prompt: the turn's start
  shell: {
    isShellTool: isGeminiShellTool,
    turnStarts: (input) => (input.event === "BeforeAgent" ? {} : null),
    command: (input) => shellCommand(input.toolInput),
  },
});
