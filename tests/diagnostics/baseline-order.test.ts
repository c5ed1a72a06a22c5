import { expect, test } from "bun:test";
import { compareWithBaseline } from "../../src/diagnostics/baseline/compare.ts";
import type { Diagnostic } from "../../src/model/diagnostic.ts";
import { tempDir, writeFiles } from "../helpers/tmp.ts";

const diag = (file: string, line: number, message: string): Diagnostic => ({
  file,
  line,
  column: 1,
  severity: "error",
  code: "E1",
  message,
  tool: "compiler",
});

test("files whose diagnostics come interleaved are each compared with their own, in the list's order", () => {
  const root = tempDir("cpilot-baseline-order-");
  writeFiles(root, { "a.txt": "a1\na2\na3\n", "b.txt": "b1\nb2\nb3\n" });
  const input = { root, callback: "lint", files: ["a.txt", "b.txt"], edited: new Set<string>() };
  compareWithBaseline({
    ...input,
    diagnostics: [diag("a.txt", 1, "x"), diag("b.txt", 2, "x"), diag("a.txt", 3, "y")],
    fromCheck: true,
  });
  // A line added on top of each: the old ones moved; one new in each file, interleaved.
  writeFiles(root, { "a.txt": "new\na1\na2\na3\n", "b.txt": "new\nb1\nb2\nb3\n" });
  const list = [
    diag("b.txt", 1, "x"),
    diag("a.txt", 2, "x"),
    diag("b.txt", 3, "x"),
    diag("a.txt", 1, "x"),
    diag("a.txt", 4, "y"),
    diag("b.txt", 4, "y"),
  ];
  const marked = compareWithBaseline({ ...input, diagnostics: list, fromCheck: false });
  expect(marked.map((d) => `${d.file}:${d.line} ${d.baseline}`)).toEqual([
    "b.txt:1 new",
    "a.txt:2 unchanged",
    "b.txt:3 unchanged",
    "a.txt:1 new",
    "a.txt:4 unchanged",
    "b.txt:4 new",
  ]);
  // Saved per file: the same list again is all as it was, the new ones still new.
  const again = compareWithBaseline({ ...input, diagnostics: list, fromCheck: false });
  expect(again.map((d) => d.baseline)).toEqual(marked.map((d) => d.baseline));
});
