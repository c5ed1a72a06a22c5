/**
 * What a file would hold after Claude Code ran the model's Write or Edit on it, worked out in
 * memory: the mod formats that text before the call is recorded or run.
 */

/** A Write's or an Edit's arguments as the model gave them (Claude Code's tool schema). */
export interface FileCall {
  readonly tool: "Write" | "Edit";
  readonly input: Readonly<Record<string, unknown>>;
}

/**
 * The file's text after the call, or null when Claude Code would refuse the call as given
 * (an Edit whose `old_string` is missing, empty or found more than once without
 * `replace_all`, or arguments of the wrong shape): such a call is left for Claude Code to
 * refuse in its own words. `current` is the file's text now, null when it does not exist.
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
