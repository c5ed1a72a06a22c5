/** An Edit that replaces the model's own when formatting changed what it would leave: whole lines, its `old_string` unique. */

export interface DerivedEdit {
  readonly old_string: string;
  readonly new_string: string;
}

function lineStart(text: string, at: number): number {
  return at <= 0 ? 0 : text.lastIndexOf("\n", at - 1) + 1;
}

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

/** Grown a line at a time on each side until unique; null when equal or impossible (an empty `before`). */
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
