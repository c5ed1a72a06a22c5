import { modifiedNote } from "../../hook/edit-gate.ts";
import type { GateVerdict, HookReply } from "../../model/hook.ts";
import { type ClaudeHookInput, NO_REPLY, permissionReply } from "./protocol.ts";
import { updatedToolInput } from "./updated-input.ts";

/** The person already lets edits through without asking. */
const AUTO_MODES = new Set(["acceptEdits", "bypassPermissions", "dontAsk"]);

/**
 * Deny with the reason (the model gets it as the tool's error). Allow unchanged: no output,
 * so Claude Code's own permission rules still apply. Changed by a plugin: `updatedInput`,
 * and the model is told. Never prompts: `ask` rules use the gate's headless mode.
 */
export function preToolUseReply(input: ClaudeHookInput, verdict: GateVerdict): HookReply {
  const mode = input.permissionMode;
  if (verdict.kind === "deny") return deny(verdict, mode);
  const change = verdict.kind === "modify" ? verdict.changes[0] : undefined;
  const tool = input.tool;
  if (change === undefined || tool === undefined) return NO_REPLY;
  const { decision } = change;
  const updated = updatedToolInput(tool.toolName, tool.toolInput, decision);
  if (!updated.ok) return deny({ reason: updated.reason, ...hintOf(decision.hint) }, mode);
  const told = modifiedNote(tool.toolName, decision);
  return permissionReply({
    decision: mode === undefined || AUTO_MODES.has(mode) ? "allow" : "ask",
    reason: told,
    updatedInput: updated.input,
    additionalContext: told,
  });
}

const hintOf = (hint: string | undefined) => (hint ? { hint } : {});

/**
 * Modes where Claude Code shows a hook's "ask" to the person; in the others it lets the
 * call through unasked, so a deny a person may overrule stays a deny there.
 */
const ASKING_MODES = new Set(["default", "plan"]);

/** A deny a person may overrule asks instead (Claude Code asks; `-p` denies). */
function deny(
  verdict: { reason: string; hint?: string; askPerson?: boolean },
  mode: string | undefined,
): HookReply {
  const { reason, hint } = verdict;
  const ask = verdict.askPerson === true && mode !== undefined && ASKING_MODES.has(mode);
  return permissionReply({
    decision: ask ? "ask" : "deny",
    reason,
    ...(hint ? { systemMessage: `cpilot gate: ${reason}\nhint: ${hint}` } : {}),
  });
}
