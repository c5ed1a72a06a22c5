import type { PatchFile, PatchReading } from "./patch-file.ts";

/**
 * A patch as OpenCode's apply_patch tool reads it, so the gate checks the files OpenCode
 * will write and no others:
 *
 * - the text is trimmed (JavaScript's whitespace, a BOM included); a `<<EOF … EOF` wrapper
 *   (optionally `cat <<'EOF'`) around all of it is removed; lines are split at `\n` only;
 * - the patch is what lies between the first line that trims to `*** Begin Patch` and the
 *   first that trims to `*** End Patch`;
 * - a header is a line that starts (no space before) with `*** Add File:`,
 *   `*** Delete File:` or `*** Update File:`; the path is the rest of the line trimmed, so
 *   no space is needed after the colon and spaces, tabs and a `\r` around it do not count;
 *   a header with no path, and any other line between sections, is skipped;
 * - `*** Move to:` counts on the line right after an Update header (an empty one: no move);
 * - a section runs until a line that starts with `***`; an Add section's text is its `+`
 *   lines.
 *
 * OpenCode refuses a patch without both markers, or with no file.
 */
export function readOpencodePatch(text: string): PatchReading {
  const lines = stripHeredoc(text.trim()).split("\n");
  const begin = lines.findIndex((l) => l.trim() === "*** Begin Patch");
  const end = lines.findIndex((l) => l.trim() === "*** End Patch");
  if (begin === -1 || end === -1 || begin >= end)
    return { ok: false, error: "Invalid patch format: missing Begin/End markers" };
  const files: PatchFile[] = [];
  let i = begin + 1;
  while (i < end) {
    const line = lines[i] as string;
    const add = pathAfter(line, "*** Add File:");
    const del = pathAfter(line, "*** Delete File:");
    const update = pathAfter(line, "*** Update File:");
    if (add) {
      let j = i + 1;
      let content = "";
      for (; j < lines.length && !(lines[j] as string).startsWith("***"); j++)
        if ((lines[j] as string).startsWith("+")) content += `${(lines[j] as string).slice(1)}\n`;
      files.push({ op: "add", path: add, content: addedText(content) });
      i = j;
    } else if (del) {
      files.push({ op: "delete", path: del });
      i++;
    } else if (update) {
      let j = i + 1;
      const moveTo = j < lines.length ? pathAfter(lines[j] as string, "*** Move to:") : undefined;
      if (moveTo !== undefined) j++;
      while (j < lines.length && !(lines[j] as string).startsWith("***")) j++;
      files.push({ op: "update", path: update, ...(moveTo ? { moveTo } : {}) });
      i = j;
    } else i++;
  }
  if (files.length === 0) return { ok: false, error: "no hunks found" };
  return { ok: true, files };
}

/** The trimmed rest of `line` after `marker`, when the line starts with it. */
function pathAfter(line: string, marker: string): string | undefined {
  return line.startsWith(marker) ? line.slice(marker.length).trim() : undefined;
}

/** What OpenCode writes for an Add section: its `+` lines, one line break at the end. */
function addedText(joined: string): string {
  const body = joined.endsWith("\n") ? joined.slice(0, -1) : joined;
  return body === "" || body.endsWith("\n") ? body : `${body}\n`;
}

function stripHeredoc(input: string): string {
  const m = input.match(/^(?:cat\s+)?<<['"]?(\w+)['"]?\s*\n([\s\S]*?)\n\1\s*$/);
  return m ? (m[2] as string) : input;
}
