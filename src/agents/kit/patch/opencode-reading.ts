import type { PatchFile, PatchReading } from "./patch-file.ts";

/**
 * A patch as OpenCode's apply_patch reads it, so the gate checks the files it will write:
 *
 * - trimmed (JavaScript's whitespace, a BOM included); a `<<EOF … EOF` wrapper (or
 *   `cat <<'EOF'`) is removed; lines split at `\n` only;
 * - the patch lies between the first lines that trim to `*** Begin Patch` / `*** End Patch`;
 * - a header starts the line with `*** Add File:`, `*** Delete File:` or `*** Update File:`;
 *   the path is the rest trimmed; headers without a path and stray lines are skipped;
 * - `*** Move to:` counts right after an Update header (empty: no move);
 * - a section runs until a line starting `***`; an Add section's text is its `+` lines.
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

function pathAfter(line: string, marker: string): string | undefined {
  return line.startsWith(marker) ? line.slice(marker.length).trim() : undefined;
}

/** One line break at the end. */
function addedText(joined: string): string {
  const body = joined.endsWith("\n") ? joined.slice(0, -1) : joined;
  return body === "" || body.endsWith("\n") ? body : `${body}\n`;
}

function stripHeredoc(input: string): string {
  const m = input.match(/^(?:cat\s+)?<<['"]?(\w+)['"]?\s*\n([\s\S]*?)\n\1\s*$/);
  return m ? (m[2] as string) : input;
}
