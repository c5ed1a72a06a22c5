import { rustLines, rustTrim, rustTrimEnd } from "./_rust-text.ts";
import type { PatchFile, PatchReading } from "./patch-file.ts";

/**
 * A patch as Codex CLI 0.169 reads it (pinned against the binary by
 * tests/agents/kit/patch/), so the gate checks the files Codex will write and no others:
 *
 * - the whole text is trimmed (Rust's whitespace, not a BOM), split at `\n` or `\r\n`;
 * - first line trimmed `*** Begin Patch`, last `*** End Patch`; or a `<<EOF` / `<<'EOF'` /
 *   `<<"EOF"` first line, a last ending with `EOF`, and such a patch between;
 * - where a section is due, a line trimming to `*** End Patch` ends it; only blanks may follow;
 * - a header trimmed starts with `*** Add File: `, `*** Delete File: ` or
 *   `*** Update File: `; the path is the rest of the trimmed line;
 * - `*** Move to: ` counts only right after an Update header; its path loses trailing spaces;
 * - Codex drops every tab and CR from a path when it writes (`.e\tnv` is `.env`);
 * - an Add section's lines start with `+`; Update chunks run until a header or End line
 *   (trailing spaces aside); anything else where a header is due voids the whole patch.
 *
 * `lines` and each file's `span` (`[start, end)`) let a caller rewrite one section in place.
 */
export interface CodexPatchLayout {
  readonly lines: readonly string[];
  readonly spans: readonly (readonly [number, number])[];
}

const BEGIN = "*** Begin Patch";
const END = "*** End Patch";
const ADD = "*** Add File: ";
const DELETE = "*** Delete File: ";
const UPDATE = "*** Update File: ";
const MOVE = "*** Move to: ";
const EOF_MARKER = "*** End of File";

class Invalid extends Error {}

/** The files a patch writes, read as Codex reads it, or why Codex refuses it. */
export function readCodexPatch(text: string): PatchReading {
  const read = readCodexPatchLayout(text);
  return read.ok ? { ok: true, files: read.files } : read;
}

export function readCodexPatchLayout(
  text: string,
): (PatchReading & { ok: false }) | { ok: true; files: PatchFile[]; layout: CodexPatchLayout } {
  try {
    const lines = rustLines(rustTrim(text));
    const [first, last] = bounds(lines);
    const files: PatchFile[] = [];
    const spans: [number, number][] = [];
    let i = first + 1;
    while (i < last) {
      if (rustTrim(lines[i] as string) === END) {
        if (lines.slice(i + 1, last).some((l) => rustTrim(l) !== ""))
          throw new Invalid("The last line of the patch must be '*** End Patch'");
        break;
      }
      const next = readSection(lines, i, last, files);
      spans.push([i, next]);
      i = next;
    }
    return { ok: true, files, layout: { lines, spans } };
  } catch (err) {
    if (err instanceof Invalid) return { ok: false, error: err.message };
    throw err;
  }
}

function bounds(lines: readonly string[]): [number, number] {
  if (strictBounds(lines, 0, lines.length - 1)) return [0, lines.length - 1];
  const first = lines[0];
  const last = lines[lines.length - 1];
  if (
    lines.length >= 4 &&
    (first === "<<EOF" || first === "<<'EOF'" || first === '<<"EOF"') &&
    last?.endsWith("EOF") &&
    strictBounds(lines, 1, lines.length - 2)
  )
    return [1, lines.length - 2];
  if (rustTrim(lines[0] ?? "") !== BEGIN)
    throw new Invalid("The first line of the patch must be '*** Begin Patch'");
  throw new Invalid("The last line of the patch must be '*** End Patch'");
}

function strictBounds(lines: readonly string[], first: number, last: number): boolean {
  return (
    last > first && rustTrim(lines[first] ?? "") === BEGIN && rustTrim(lines[last] ?? "") === END
  );
}

/** Returns the index after it. */
function readSection(lines: readonly string[], start: number, end: number, files: PatchFile[]) {
  const header = rustTrim(lines[start] as string);
  if (header.startsWith(ADD)) {
    let i = start + 1;
    let content = "";
    while (i < end && (lines[i] as string).startsWith("+")) {
      content += `${(lines[i] as string).slice(1)}\n`;
      i++;
    }
    files.push({ op: "add", path: written(header.slice(ADD.length)), content });
    return i;
  }
  if (header.startsWith(DELETE)) {
    files.push({ op: "delete", path: written(header.slice(DELETE.length)) });
    return start + 1;
  }
  if (header.startsWith(UPDATE)) {
    const path = header.slice(UPDATE.length);
    let i = start + 1;
    let moveTo: string | undefined;
    const move = i < end ? rustTrimEnd(lines[i] as string) : "";
    if (move.startsWith(MOVE)) {
      moveTo = move.slice(MOVE.length);
      i++;
    }
    let chunks = 0;
    while (i < end) {
      const line = lines[i] as string;
      if (rustTrim(line) === "") {
        i++;
        continue;
      }
      if (endsChunks(line)) break;
      i = readChunk(lines, i, end, chunks === 0);
      chunks++;
    }
    if (chunks === 0) throw new Invalid(`Update file hunk for path '${path}' is empty`);
    files.push({
      op: "update",
      path: written(path),
      ...(moveTo === undefined ? {} : { moveTo: written(moveTo) }),
    });
    return i;
  }
  throw new Invalid(`'${header}' is not a valid hunk header`);
}

const written = (path: string): string => path.replace(/[\t\r]/g, "");

/** A header or the end, trailing spaces aside. */
function endsChunks(line: string): boolean {
  const t = rustTrimEnd(line);
  return t === END || t.startsWith(ADD) || t.startsWith(DELETE) || t.startsWith(UPDATE);
}

/** Returns the index after it. */
function readChunk(lines: readonly string[], start: number, end: number, first: boolean) {
  let i = start;
  const head = lines[i] as string;
  if (head === "@@" || head.startsWith("@@ ")) i++;
  else if (!first)
    throw new Invalid(`Expected update hunk to start with a @@ context marker, got: '${head}'`);
  if (i >= end) throw new Invalid("Update hunk does not contain any lines");
  let taken = 0;
  while (i < end) {
    const line = lines[i] as string;
    if (line === EOF_MARKER) {
      if (taken === 0) throw new Invalid("Update hunk does not contain any lines");
      return i + 1;
    }
    const c = line[0];
    if (c !== undefined && c !== " " && c !== "+" && c !== "-") {
      if (taken === 0) throw new Invalid(`Unexpected line found in update hunk: '${line}'`);
      return i;
    }
    taken++;
    i++;
  }
  return i;
}
