import type { ActionContext, ActionOutcome } from "./_outcome.ts";
import { addAction } from "./add.ts";
import { completeAction } from "./complete.ts";
import { replaceAction } from "./replace.ts";
import type { UpdateCommand } from "./types.ts";

export type { ActionContext, ActionOutcome } from "./_outcome.ts";

/**
 * Apply one validated command to a document's text. Pure: text in, text out. Failures
 * (missing section, id matching nothing or several blocks) come back as `ok: false`.
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
  switch (command.action) {
    case "add":
      return addAction(text, command, context.file);
    case "update":
    case "remove":
      return replaceAction(text, command, context.file);
    case "complete":
      return completeAction(text, command, context.file, context);
    default:
      return { ok: false, error: `Cannot apply "${command.action}": it is not an action` };
  }
}
