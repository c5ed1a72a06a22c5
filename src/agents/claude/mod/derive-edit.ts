/**
 * An Edit that turns one text into another, as the model could have written it: whole lines,
 * its `old_string` found exactly once in the text before. The mod replaces the model's own
 * Edit with it when formatting changed what the Edit would have left.
 */

/** The replacement: `old_string` occurs once in the text before; `new_string` takes its place. */
export interface DerivedEdit {
  readonly old_string: string;
  readonly new_string: string;
}

/** Start of the line holding `at` (the index just after the previous newline). */
function lineStart(text: string, at: number): number {
  return at <= 0 ? 0 : text.lastIndexOf("\n", at - 1) + 1;
}

/** End of the line holding the character before `at`, its newline included. */
function lineEnd(text: string, at: number): number {
  if (at <= 0) return Math.min(text.length, text.indexOf("\n") + 1 || text.length);
  if (text[at - 1] === "\n") return at;
  const nl = text.indexOf("\n", at);
  return nl === -1 ? text.length : nl + 1;
}

function occursOnce(text: string, part: string): boolean {
  const first = text.indexOf(part);
  return first !== -1 && text.indexOf(part, first + 1) === -1;
}

/**
 * The smallest whole-line Edit from `before` to `after` whose `old_string` is unique in
 * `before`, grown a line at a time on each side until it is; null when the texts are equal
 * or no such Edit exists (an empty `before`, which only a Write can fill).
 */
export function deriveEdit(before: string, after: string): DerivedEdit | null {
  if (before === after || before === "") return null;
  let prefix = 0;
  const shorter = Math.min(before.length, after.length);
  while (prefix < shorter && before[prefix] === after[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < shorter - prefix &&
    before[before.length - 1 - suffix] === after[after.length - 1 - suffix]
  )
    suffix++;
  // The tail both share stays shared: the edit's end is measured from the end of each text.
  let start = lineStart(before, prefix);
  let end = lineEnd(before, before.length - suffix);
  if (end === start) end = lineEnd(before, start + 1);
  for (;;) {
    const oldText = before.slice(start, end);
    if (oldText !== "" && occursOnce(before, oldText)) {
      const tail = before.length - end;
      return { old_string: oldText, new_string: after.slice(start, after.length - tail) };
    }
    if (start === 0 && end === before.length) return null;
    start = lineStart(before, start - 1);
    end = lineEnd(before, end + 1);
  }
}
