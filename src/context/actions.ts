import { MdDoc } from "./_doc.ts";
import type { ActionContext, ActionOutcome, DocOutcome } from "./_outcome.ts";
import { addAction } from "./add.ts";
import { completeAction } from "./complete.ts";
import { replaceAction } from "./replace.ts";
import type { UpdateCommand } from "./types.ts";

export type { ActionContext, ActionOutcome } from "./_outcome.ts";

/** Failures (missing section, id matching nothing or several blocks) are `ok: false` and change nothing. */
export function applyToDoc(doc: MdDoc, command: UpdateCommand, context: ActionContext): DocOutcome {
  switch (command.action) {
    case "add":
      return addAction(doc, command, context.file);
    case "update":
    case "remove":
      return replaceAction(doc, command, context.file);
    case "complete":
      return completeAction(doc, command, context.file, context);
    default:
      return { ok: false, error: `Cannot apply "${command.action}": it is not an action` };
  }
}

/**
 * Pure. Failures (missing section, id matching nothing or several blocks) are `ok: false`.
 *
 * @example
 * const out = applyAction("## Tasks\n\n- [ ] Ship\n", { file: "TASKS.md", action: "complete", id: "Ship", content: "" }, ctx);
 * // out.ok && out.text === "## Tasks\n\n- [x] Ship\n"
 */
export function applyAction(
  text: string,
  command: UpdateCommand,
  context: ActionContext,
): ActionOutcome {
  const doc = new MdDoc(text);
  const out = applyToDoc(doc, command, context);
  return out.ok ? { ...out, text: doc.text() } : out;
}
