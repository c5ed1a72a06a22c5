import { expect, test } from "bun:test";
import { mergeAdjacent } from "../../src/stage/merge-lines.ts";

const base = "one\nthree\nfive\n";

test("a fix beside an unstaged edit merges: both are kept, each where the base puts it", () => {
  expect(mergeAdjacent(base, "one\nthree\nunstaged\nfive\n", "one\nTHREE\nfive\n")).toBe(
    "one\nTHREE\nunstaged\nfive\n",
  );
  expect(mergeAdjacent(base, "new first\none\nthree\nfive\n", "ONE\nthree\nfive\n")).toBe(
    "new first\nONE\nthree\nfive\n",
  );
  // the fix removes a line above the edit: the edit stays on its own line, not shifted
  expect(mergeAdjacent(base, "one\nthree\nfive!\n", "three\nfive\n")).toBe("three\nfive!\n");
});

test("edits of the same line, or two insertions at one spot, clash", () => {
  expect(mergeAdjacent(base, "one\nthree?\nfive\n", "one\nTHREE\nfive\n")).toBeNull();
  expect(mergeAdjacent(base, "one\nA\nthree\nfive\n", "one\nB\nthree\nfive\n")).toBeNull();
});

test("CRLF and a missing final newline pass through", () => {
  const crlf = "a\r\nb\r\nc";
  expect(mergeAdjacent(crlf, "a\r\nb\r\nc and more", "A\r\nb\r\nc")).toBe("A\r\nb\r\nc and more");
});
