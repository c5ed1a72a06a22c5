import { gateEdit, modifiedNote } from "../../hook/edit-gate.ts";
import type { GateDecision, PendingWrite } from "../../model/gate-types.ts";
import type { HookReply } from "../../model/hook.ts";
import type { HookContext } from "./hook-context.ts";
import { claudeProtocol, editedPath, isEditTool, NO_REPLY, permissionReply } from "./protocol.ts";
import { intendedMultiEdit, updatedToolInput } from "./updated-input.ts";

/** Permission modes in which the person already lets edits through without asking. */
const AUTO_MODES = new Set(["acceptEdits", "bypassPermissions", "dontAsk"]);

/**
 * PreToolUse on an edit tool: the write gate. Deny with the reason (the tool does not run,
 * the model gets the reason as the tool's error). Allow unchanged: no output, so Claude
 * Code's own permission rules still apply. Allow changed by a plugin: `updatedInput`, and
 * the change is told to the model, whose history keeps its original input. Never prompts:
 * there is no terminal in a hook, so `ask` rules use the gate's headless mode.
 */
export async function onPreToolUse(ctx: HookContext): Promise<HookReply> {
  const tool = ctx.input.tool;
  if (tool === undefined || !isEditTool(tool.toolName)) return NO_REPLY;
  const path = editedPath(tool);
  if (path === null) return NO_REPLY;
  const write = pendingWrite(tool.toolName, path, tool.toolInput, ctx);
  const decision = await gateEdit(claudeProtocol, ctx.config, write, ctx.input.cwd);
  const mode = ctx.input.permissionMode;
  if (decision.decision === "deny") return deny(decision.reason, decision, mode);
  if (decision.modified === undefined) return NO_REPLY;
  const updated = updatedToolInput(tool.toolName, tool.toolInput, decision);
  if (!updated.ok) return deny(updated.reason, decision, mode);
  const told = modifiedNote(tool.toolName, decision);
  return permissionReply({
    decision: mode === undefined || AUTO_MODES.has(mode) ? "allow" : "ask",
    reason: told,
    updatedInput: updated.input,
    additionalContext: told,
  });
}

/**
 * Permission modes in which Claude Code shows a hook's "ask" to the person. In the others it
 * has let the call through unasked (`auto`, and `bypassPermissions` in Claude Code before
 * 2.1.233), so a deny a person may overrule stays a deny there.
 */
const ASKING_MODES = new Set(["default", "plan"]);

/** Deny; or ask the person, for a deny a person may overrule (Claude Code asks; `-p` denies). */
function deny(reason: string, decision: GateDecision, mode: string | undefined): HookReply {
  const ask = decision.askPerson === true && mode !== undefined && ASKING_MODES.has(mode);
  return permissionReply({
    decision: ask ? "ask" : "deny",
    reason,
    ...(decision.hint ? { systemMessage: `cpilot gate: ${reason}\nhint: ${decision.hint}` } : {}),
  });
}

function pendingWrite(
  toolName: string,
  path: string,
  input: Record<string, unknown>,
  ctx: HookContext,
): PendingWrite {
  const base = { tool: toolName, path, agent: "claude", session: ctx.input.session };
  const s = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);
  if (toolName === "Write") {
    const content = s(input.content);
    return content === undefined ? base : { ...base, content };
  }
  if (toolName === "Edit") {
    const oldString = s(input.old_string);
    const newString = s(input.new_string);
    return {
      ...base,
      ...(oldString === undefined ? {} : { oldString }),
      ...(newString === undefined ? {} : { newString }),
      ...(input.replace_all === true ? { replaceAll: true } : {}),
    };
  }
  if (toolName === "MultiEdit") {
    const content = intendedMultiEdit(path, ctx.input.cwd, input.edits);
    return content === null ? base : { ...base, content };
  }
  return base;
}
