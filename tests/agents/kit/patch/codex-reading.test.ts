/** Codex's reading of a patch on a table (the differential test proves it against the binary). */
import { describe, expect, test } from "bun:test";
import { readCodexPatch } from "../../../../src/agents/kit/patch/codex-reading.ts";

const P = (...lines: string[]) => ["*** Begin Patch", ...lines, "*** End Patch"].join("\n");

const table: { name: string; patch: string; files: unknown[] | "refused" }[] = [
  {
    name: "add, update with a move, delete",
    patch: P(
      "*** Add File: a.md",
      "+# A",
      "*** Update File: b.ts",
      "*** Move to: c.ts",
      "@@",
      "-x",
      "+y",
      "*** Delete File: d.ts",
    ),
    files: [
      { op: "add", path: "a.md", content: "# A\n" },
      { op: "update", path: "b.ts", moveTo: "c.ts" },
      { op: "delete", path: "d.ts" },
    ],
  },
  {
    name: "whitespace and a no-break space before a header are trimmed",
    patch: P(" \u00a0*** Add File: .env", "+X=1", "\t*** Delete File: old"),
    files: [
      { op: "add", path: ".env", content: "X=1\n" },
      { op: "delete", path: "old" },
    ],
  },
  {
    name: "a second space after the colon stays in the path; trailing ones do not",
    patch: P("*** Add File:  .env \t", "+X=1"),
    files: [{ op: "add", path: " .env", content: "X=1\n" }],
  },
  {
    name: "a tab after the colon is no header",
    patch: P("*** Add File:\t.env", "+x"),
    files: "refused",
  },
  {
    name: "no space after the colon is no header",
    patch: P("*** Add File:.env", "+x"),
    files: "refused",
  },
  {
    name: "a context line that trims to End Patch does not end the patch",
    patch: P("*** Update File: u.txt", "@@", " *** End Patch", "*** Add File: .git/hooks/x", "+x"),
    files: [
      { op: "update", path: "u.txt" },
      { op: "add", path: ".git/hooks/x", content: "x\n" },
    ],
  },
  {
    name: "End Patch where a header is due ends it, and only blank lines may follow",
    patch: P("*** Add File: a", "+a", "*** End Patch", "", "  "),
    files: [{ op: "add", path: "a", content: "a\n" }],
  },
  {
    name: "a section after End Patch makes it invalid",
    patch: P("*** Add File: a", "+a", "*** End Patch", "*** Add File: .env", "+x"),
    files: "refused",
  },
  {
    name: "CRLF line ends",
    patch: P("*** Add File: a", "+a").replace(/\n/g, "\r\n"),
    files: [{ op: "add", path: "a", content: "a\n" }],
  },
  {
    name: "a BOM is not whitespace to Codex",
    patch: `\ufeff${P("*** Add File: a", "+a")}`,
    files: "refused",
  },
  {
    name: "a literal heredoc wrapper",
    patch: `<<'EOF'\n${P("*** Add File: a", "+a")}\nEOF`,
    files: [{ op: "add", path: "a", content: "a\n" }],
  },
  {
    name: "apply_patch before the heredoc is not read as a wrapper",
    patch: `apply_patch <<'EOF'\n${P("*** Add File: a", "+a")}\nEOF`,
    files: "refused",
  },
  {
    name: "a move path keeps its leading space, loses trailing ones",
    patch: P("*** Update File: u", "*** Move to:  m\u00a0", "@@", "-a", "+b"),
    files: [{ op: "update", path: "u", moveTo: " m" }],
  },
  {
    name: "tabs and carriage returns inside a path are dropped, as Codex writes it",
    patch: P("*** Add File: .e\tnv", "+X=1", "*** Delete File: .git\r/hooks/x"),
    files: [
      { op: "add", path: ".env", content: "X=1\n" },
      { op: "delete", path: ".git/hooks/x" },
    ],
  },
  { name: "not a patch", patch: "echo hello", files: "refused" },
];

describe("readCodexPatch", () => {
  for (const row of table)
    test(row.name, () => {
      const read = readCodexPatch(row.patch);
      if (row.files === "refused") expect(read.ok).toBe(false);
      else expect(read).toEqual({ ok: true, files: row.files as never });
    });
});
