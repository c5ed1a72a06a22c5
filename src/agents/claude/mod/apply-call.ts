/** What a file would hold after Claude Code ran a Write or Edit, worked out in memory. */

/** A Write's or an Edit's arguments as the model gave them (Claude Code's tool schema). */
export interface FileCall {
  readonly tool: "Write" | "Edit";
  readonly input: Readonly<Record<string, unknown>>;
}

/**
 * null when Claude Code would refuse the call (an Edit whose `old_string` is missing, empty
 * or not unique without `replace_all`; wrong shapes): left for it to refuse in its own words.
 * `current`: null when the file does not exist.
 */
export function textAfterCall(call: FileCall, current: string | null): string | null {
  const { input } = call;
  if (call.tool === "Write") return typeof input.content === "string" ? input.content : null;
  const { old_string: oldText, new_string: newText, replace_all: all } = input;
  if (current === null || typeof oldText !== "string" || typeof newText !== "string") return null;
  if (oldText === "" || oldText === newText) return null;
  if (all !== undefined && typeof all !== "boolean") return null;
  const first = current.indexOf(oldText);
  if (first === -1) return null;
  if (all === true) return current.split(oldText).join(newText);
  if (current.indexOf(oldText, first + 1) !== -1) return null;
  return current.slice(0, first) + newText + current.slice(first + oldText.length);
}
