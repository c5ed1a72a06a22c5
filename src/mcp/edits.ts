/** All or nothing, with where each new_string landed (for resync) and the splices (to move places found earlier). */
export interface Edit {
  readonly oldString: string;
  readonly newString: string;
  readonly replaceAll?: boolean;
}

export interface Splice {
  readonly at: number;
  readonly removed: number;
  readonly inserted: number;
}

export interface Region {
  readonly start: number;
  readonly end: number;
}

export type EditFailure =
  | { kind: "empty-old"; index: number }
  | { kind: "no-change"; index: number }
  | { kind: "not-found"; index: number; text: string }
  | { kind: "not-unique"; index: number; text: string; offsets: number[] };

export type EditResult =
  | {
      ok: true;
      text: string;
      splices: Splice[];
      /** A later edit that rewrote part of it drops it. */
      regions: Region[][];
      replacements: number;
    }
  | { ok: false; failure: EditFailure };

/** Every offset where `needle` occurs, without overlaps. */
export function occurrences(text: string, needle: string): number[] {
  const found: number[] = [];
  if (needle === "") return found;
  let i = text.indexOf(needle);
  while (i !== -1) {
    found.push(i);
    i = text.indexOf(needle, i + needle.length);
  }
  return found;
}

/** null when the splice rewrote part of it. */
export function shiftRegion(region: Region, splice: Splice): Region | null {
  const spliceEnd = splice.at + splice.removed;
  if (splice.at >= region.end) return region;
  if (spliceEnd <= region.start) {
    const delta = splice.inserted - splice.removed;
    return { start: region.start + delta, end: region.end + delta };
  }
  return null;
}

/**
 * Each to the result of the one before (as an agent's MultiEdit does); any failure leaves
 * nothing applied.
 *
 * @example
 * applyEdits("let a = 1;\n", [{ oldString: "a = 1", newString: "a = 2" }]);
 * // { ok: true, text: "let a = 2;\n", regions: [[{ start: 4, end: 9 }]], ... }
 */
export function applyEdits(original: string, edits: readonly Edit[]): EditResult {
  let text = original;
  const splices: Splice[] = [];
  const regions: Region[][] = [];
  let replacements = 0;
  for (const [index, edit] of edits.entries()) {
    if (edit.oldString === "") return { ok: false, failure: { kind: "empty-old", index } };
    if (edit.oldString === edit.newString)
      return { ok: false, failure: { kind: "no-change", index } };
    const found = occurrences(text, edit.oldString);
    if (found.length === 0) return { ok: false, failure: { kind: "not-found", index, text } };
    if (found.length > 1 && edit.replaceAll !== true) {
      return { ok: false, failure: { kind: "not-unique", index, text, offsets: found } };
    }
    const mine: Region[] = [];
    const parts: string[] = [];
    let last = 0;
    let delta = 0;
    for (const at of found) {
      parts.push(text.slice(last, at), edit.newString);
      last = at + edit.oldString.length;
      const splice = {
        at: at + delta,
        removed: edit.oldString.length,
        inserted: edit.newString.length,
      };
      for (const [i, list] of regions.entries()) {
        regions[i] = list.flatMap((r) => shiftRegion(r, splice) ?? []);
      }
      splices.push(splice);
      mine.push({ start: splice.at, end: splice.at + edit.newString.length });
      delta += edit.newString.length - edit.oldString.length;
    }
    parts.push(text.slice(last));
    text = parts.join("");
    regions.push(mine);
    replacements += found.length;
  }
  return { ok: true, text, splices, regions, replacements };
}
