/** The apply_patch parser on a table of patches. */
import { describe, expect, test } from "bun:test";
import { parsePatch, patchText, rewriteAddFile } from "../../../src/agents/codex/patch.ts";

const table: { name: string; patch: string; files: unknown[] }[] = [
  {
    name: "add one file",
    patch: "*** Begin Patch\n*** Add File: src/a.ts\n+export const a = 1;\n+\n*** End Patch\n",
    files: [{ op: "add", path: "src/a.ts", content: "export const a = 1;\n\n" }],
  },
  {
    name: "update with a hunk",
    patch:
      "*** Begin Patch\n*** Update File: src/b.ts\n@@ function b\n-  return 1;\n+  return 2;\n*** End Patch",
    files: [{ op: "update", path: "src/b.ts" }],
  },
  {
    name: "update with Move to",
    patch:
      "*** Begin Patch\n*** Update File: old/name.ts\n*** Move to: new/name.ts\n@@\n-a\n+b\n*** End Patch\n",
    files: [{ op: "update", path: "old/name.ts", moveTo: "new/name.ts" }],
  },
  {
    name: "delete",
    patch: "*** Begin Patch\n*** Delete File: gone.txt\n*** End Patch\n",
    files: [{ op: "delete", path: "gone.txt" }],
  },
  {
    name: "several files in order",
    patch: [
      "*** Begin Patch",
      "*** Add File: a.md",
      "+# A",
      "*** Update File: b.ts",
      "@@",
      " keep",
      "-x",
      "+y",
      "*** Delete File: c.ts",
      "*** Update File: d.ts",
      "*** Move to: e.ts",
      "*** End Patch",
    ].join("\n"),
    files: [
      { op: "add", path: "a.md", content: "# A\n" },
      { op: "update", path: "b.ts" },
      { op: "delete", path: "c.ts" },
      { op: "update", path: "d.ts", moveTo: "e.ts" },
    ],
  },
  {
    name: "names with spaces, unicode, a leading dash, trailing blanks and CRLF",
    patch:
      "*** Begin Patch\r\n*** Add File: my dir/file name.ts  \r\n+x\r\n*** Update File: dossier/été -1.ts\r\n@@\r\n-a\r\n+b\r\n*** Delete File: -rf \r\n*** End Patch\r\n",
    files: [
      { op: "add", path: "my dir/file name.ts", content: "x\n" },
      { op: "update", path: "dossier/été -1.ts" },
      { op: "delete", path: "-rf" },
    ],
  },
  {
    name: "file content that mentions markers is not a header",
    patch: [
      "*** Begin Patch",
      "*** Add File: docs/patches.md",
      "+*** Add File: not/a/file.ts",
      "*** Update File: docs/more.md",
      "@@",
      " *** Delete File: context line",
      "-*** Update File: removed line",
      "+*** Move to: added line",
      "*** End Patch",
    ].join("\n"),
    files: [
      { op: "add", path: "docs/patches.md", content: "*** Add File: not/a/file.ts\n" },
      { op: "update", path: "docs/more.md" },
    ],
  },
  {
    name: "a heredoc wrapper around the patch",
    patch:
      "apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: w.ts\n+1\n*** End Patch\nEOF\n*** Add File: after-end.ts\n",
    files: [{ op: "add", path: "w.ts", content: "1\n" }],
  },
  {
    name: "empty add, absolute path",
    patch: "*** Begin Patch\n*** Add File: /abs/path/empty.txt\n*** End Patch\n",
    files: [{ op: "add", path: "/abs/path/empty.txt", content: "" }],
  },
  { name: "not a patch", patch: "echo hello", files: [] },
  {
    name: "a header with no path",
    patch: "*** Begin Patch\n*** Add File: \n+x\n*** End Patch",
    files: [],
  },
];

describe("parsePatch", () => {
  for (const row of table) {
    test(row.name, () => {
      expect(parsePatch(row.patch)).toEqual(row.files as never);
    });
  }
});

describe("patchText", () => {
  test("a string command, or the argv element holding the patch", () => {
    expect(patchText({ command: "*** Begin Patch\n" })).toBe("*** Begin Patch\n");
    expect(patchText({ command: ["apply_patch", "*** Begin Patch\n*** End Patch"] })).toBe(
      "*** Begin Patch\n*** End Patch",
    );
    expect(patchText({ command: 3 })).toBeNull();
  });
});

describe("rewriteAddFile", () => {
  test("replaces one added file's path and content, leaves the rest byte for byte", () => {
    const patch =
      "*** Begin Patch\n*** Add File: a.mod\n+mine\n+more\n*** Update File: b.ts\n@@\n-x\n+y\n*** End Patch\n";
    const out = rewriteAddFile(patch, "a.mod", { path: "a.mod", content: "MODIFIED\n" });
    expect(out).toBe(
      "*** Begin Patch\n*** Add File: a.mod\n+MODIFIED\n*** Update File: b.ts\n@@\n-x\n+y\n*** End Patch\n",
    );
    expect(parsePatch(out)[0]).toEqual({ op: "add", path: "a.mod", content: "MODIFIED\n" });
  });
});
