import { rustLines, rustTrim, rustTrimEnd } from "./_rust-text.ts";
import type { PatchFile, PatchReading } from "./patch-file.ts";

/**
 * A patch as Codex CLI 0.169 reads it (its apply-patch parser; the rules below were taken
 * from its source and pinned down against the binary by tests/agents/kit/patch/), so the
 * gate checks the files Codex will write and no others:
 *
 * - the whole text is trimmed (Rust's whitespace: no-break and other Unicode spaces too, not
 *   a BOM), then split into lines (`\n`, or `\r\n`);
 * - the first line, trimmed, must be `*** Begin Patch` and the last, trimmed,
 *   `*** End Patch`; or the first is exactly `<<EOF`, `<<'EOF'` or `<<"EOF"`, the last ends
 *   with `EOF`, and the lines between are such a patch;
 * - where a section is due, a line that trims to `*** End Patch` ends the patch, and only
 *   blank lines may follow it;
 * - a section header is a line that, trimmed, starts with `*** Add File: `,
 *   `*** Delete File: ` or `*** Update File: ` (one space after the colon); the path is the
 *   rest of the trimmed line, so it may start with spaces and never ends with one;
 * - `*** Move to: ` counts only on the line right after an Update header, with nothing
 *   before it; its path keeps the spaces after the marker and loses those at the end;
 * - when it writes, Codex drops every tab and carriage return from a path (`.e\tnv` is
 *   `.env`), so the paths read here have none;
 * - an Add section's lines start with `+`; an Update section's chunks run until a line
 *   that, without its trailing spaces, is a header or `*** End Patch`; anything else where
 *   a header is due makes the whole patch invalid, and Codex writes nothing.
 *
 * `lines` and each file's `span` (its lines, `[start, end)`) let a caller rewrite one
 * section in place.
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

/** {@link readCodexPatch} with where each file's section is (see CodexPatchLayout). */
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

/** The indices of the Begin and End lines. */
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

/** Read the section starting at `start` into `files`; returns the index after it. */
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

/** The path Codex writes for one named in a patch: without tabs and carriage returns. */
const written = (path: string): string => path.replace(/[\t\r]/g, "");

/** A line that ends an Update section's chunks: a header or the end, trailing spaces aside. */
function endsChunks(line: string): boolean {
  const t = rustTrimEnd(line);
  return t === END || t.startsWith(ADD) || t.startsWith(DELETE) || t.startsWith(UPDATE);
}

/** One `@@` chunk of an Update section; returns the index after it. */
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
