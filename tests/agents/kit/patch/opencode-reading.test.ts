/** OpenCode's reading of a patch on a table (the differential test proves it against OpenCode). */
import { describe, expect, test } from "bun:test";
import { readOpencodePatch } from "../../../../src/agents/kit/patch/opencode-reading.ts";

const P = (...lines: string[]) => ["*** Begin Patch", ...lines, "*** End Patch"].join("\n");

const table: { name: string; patch: string; files: unknown[] | "refused" }[] = [
  {
    name: "no space, tabs and form feeds around the path are trimmed",
    patch: P("*** Add File:.env", "+X=1", "*** Delete File:\t\fold\f"),
    files: [
      { op: "add", path: ".env", content: "X=1\n" },
      { op: "delete", path: "old" },
    ],
  },
  {
    name: "a header with a space before it is skipped, its lines too",
    patch: P(" *** Add File: .env", "+X=1", "*** Add File: a", "+a"),
    files: [{ op: "add", path: "a", content: "a\n" }],
  },
  {
    name: "the first line that trims to End Patch ends the patch",
    patch: P("*** Add File: a", "+a", " *** End Patch", "*** Add File: .env", "+X=1"),
    files: [{ op: "add", path: "a", content: "a\n" }],
  },
  {
    name: "an Add section runs past a fake End Patch",
    patch: P("*** Add File: a", "+a", " *** End Patch", "+b"),
    files: [{ op: "add", path: "a", content: "a\nb\n" }],
  },
  {
    name: "CRLF and a BOM",
    patch: `\ufeff${P("*** Add File: a", "+a").replace(/\n/g, "\r\n")}`,
    files: [{ op: "add", path: "a", content: "a\r\n" }],
  },
  {
    name: "an empty Move to is no move",
    patch: P("*** Update File: u", "*** Move to:  ", "@@", "-a", "+b"),
    files: [{ op: "update", path: "u" }],
  },
  {
    name: "a cat heredoc wrapper",
    patch: `cat <<'EOF'\n${P("*** Add File: a", "+a")}\nEOF`,
    files: [{ op: "add", path: "a", content: "a\n" }],
  },
  { name: "no file", patch: P(), files: "refused" },
  { name: "no End Patch", patch: "*** Begin Patch\n*** Add File: a\n+a", files: "refused" },
];

describe("readOpencodePatch", () => {
  for (const row of table)
    test(row.name, () => {
      const read = readOpencodePatch(row.patch);
      if (row.files === "refused") expect(read.ok).toBe(false);
      else expect(read).toEqual({ ok: true, files: row.files as never });
    });
});
