/** Locating an agent's new_string after a formatter rewrote the file, and the text helpers. */
import { describe, expect, test } from "bun:test";
import { applyEdits, shiftRegion } from "../../src/mcp/edits.ts";
import { nearestRegions } from "../../src/mcp/nearest.ts";
import { locateRegion } from "../../src/mcp/resync-region.ts";
import { fromAgent, keepFinalNewline, toAgentSpace, toDiskSpace } from "../../src/mcp/text-file.ts";

const regionOf = (text: string, piece: string) => {
  const start = text.indexOf(piece);
  return { start, end: start + piece.length };
};

describe("locateRegion", () => {
  test("exact: the formatted new_string when its neighbours were left alone", () => {
    const before = "a\nb\nlet  x=1;\nc\nd\n";
    const after = "a\nb\nlet x = 1;\nc\nd\n";
    const r = locateRegion(before, after, regionOf(before, "let  x=1;"));
    expect(r.view).toEqual({ kind: "exact", text: "let x = 1;", startLine: 3, endLine: 3 });
    expect(r.changedElsewhere).toBe(false);
  });

  test("exact within a line: only the part that was new_string", () => {
    const before = "call(foo,bar, baz)\nnext\n";
    const after = "call(foo, bar, baz)\nnext\n";
    const r = locateRegion(before, after, regionOf(before, "foo,bar"));
    expect(r.view).toEqual({ kind: "exact", text: "foo, bar", startLine: 1, endLine: 1 });
  });

  test("exact over several lines that the formatter split", () => {
    const before = "top\nif(x){y();z();}\nbottom\n";
    const after = "top\nif (x) {\n  y();\n  z();\n}\nbottom\n";
    const r = locateRegion(before, after, regionOf(before, "if(x){y();z();}\n"));
    expect(r.view).toEqual({
      kind: "exact",
      text: "if (x) {\n  y();\n  z();\n}\n",
      startLine: 2,
      endLine: 5,
    });
  });

  test("lines: when the text around it changed too, whole lines are shown", () => {
    const before = "keep\nfoo( 1 )\nnew(2)\nkeep2\n";
    const after = "keep\nfoo(1)\nnew(2);\nkeep2\n";
    const r = locateRegion(before, after, regionOf(before, "new(2)"));
    expect(r.view).toEqual({ kind: "lines", text: "foo(1)\nnew(2);\n", startLine: 2, endLine: 3 });
  });

  test("unchanged: the region itself was not touched, but other lines were", () => {
    const before = "a  =  1\nmine\nz\n";
    const after = "a = 1\nmine\nz\n";
    const r = locateRegion(before, after, regionOf(before, "mine"));
    expect(r.view).toEqual({ kind: "unchanged", startLine: 2 });
    expect(r.changedElsewhere).toBe(true);
  });

  test("unsure: every line changed, the edit cannot be told apart", () => {
    const lines = Array.from({ length: 30 }, (_, i) => `line ${i}`);
    const before = `${lines.join("\n")}\n`;
    const after = `${lines.map((l) => `# ${l}`).join("\n")}\n`;
    const r = locateRegion(before, after, regionOf(before, "line 15"));
    expect(r.view.kind).toBe("unsure");
  });

  test("line numbers shift with lines the formatter inserted above", () => {
    const before = "import a\nx=1\n";
    const after = "import a\n\n\nx = 1\n";
    const r = locateRegion(before, after, regionOf(before, "x=1"));
    expect(r.view).toMatchObject({ kind: "exact", text: "x = 1", startLine: 4 });
  });
});

describe("applyEdits", () => {
  test("regions of earlier edits move with later ones; one a later edit rewrote is dropped", () => {
    const r = applyEdits("aaa bbb ccc", [
      { oldString: "ccc", newString: "CCC" },
      { oldString: "aaa", newString: "AAAAA" },
      { oldString: "AAAAA bbb", newString: "z" },
    ]);
    if (!r.ok) throw new Error("expected ok");
    expect(r.text).toBe("z CCC");
    expect(r.regions[0]).toEqual([{ start: 2, end: 5 }]);
    expect(r.regions[1]).toEqual([]);
    expect(r.regions[2]).toEqual([{ start: 0, end: 1 }]);
  });

  test("replace_all gives one region per occurrence in the final text", () => {
    const r = applyEdits("x.x.x", [{ oldString: "x", newString: "yy", replaceAll: true }]);
    if (!r.ok) throw new Error("expected ok");
    expect(r.text).toBe("yy.yy.yy");
    expect(r.regions[0]).toEqual([
      { start: 0, end: 2 },
      { start: 3, end: 5 },
      { start: 6, end: 8 },
    ]);
  });

  test("shiftRegion: before, after, overlapping", () => {
    expect(shiftRegion({ start: 5, end: 8 }, { at: 0, removed: 2, inserted: 4 })).toEqual({
      start: 7,
      end: 10,
    });
    expect(shiftRegion({ start: 5, end: 8 }, { at: 8, removed: 1, inserted: 0 })).toEqual({
      start: 5,
      end: 8,
    });
    expect(shiftRegion({ start: 5, end: 8 }, { at: 6, removed: 1, inserted: 0 })).toBeNull();
  });
});

describe("nearestRegions", () => {
  test("finds the closest window of lines", () => {
    const text = "alpha\nbeta\nfunction foo(a, b) {\n  return a + b;\n}\ngamma\n";
    const found = nearestRegions(text, "function foo(a,b) {\n  return a+b;\n}");
    expect(found[0]?.start).toBe(2);
    expect(found[0]?.score).toBeGreaterThan(0.8);
  });

  test("large files are searched around anchors, still finding the match", () => {
    const lines = Array.from({ length: 40_000 }, (_, i) => `const value${i} = compute(${i});`);
    // ten snippet lines over 40,000 file lines are past the full scan's limit: the anchor path
    const snippet = lines
      .slice(31_337, 31_347)
      .join("\n")
      .replace("compute(31337);", "compute(31337)");
    const found = nearestRegions(lines.join("\n"), snippet);
    expect(found[0]?.start).toBe(31_337);
  });
});

describe("text shape", () => {
  test("CRLF, BOM and final newline survive a round trip through agent space", () => {
    const { text, shape } = toAgentSpace("\uFEFFa\r\nb\r\n");
    expect(text).toBe("a\nb\n");
    expect(toDiskSpace(`${text}c\n`, shape)).toBe("\uFEFFa\r\nb\r\nc\r\n");
    expect(fromAgent("x\r\ny", shape)).toBe("x\ny");
    expect(keepFinalNewline("x", shape)).toBe("x\n");
    const bare = toAgentSpace("a\nb").shape;
    expect(keepFinalNewline("a\nb\n", bare)).toBe("a\nb");
  });

  test("mixed line endings are left exactly as they are", () => {
    const { text, shape } = toAgentSpace("a\r\nb\nc\r\n");
    expect(shape.eol).toBe("mixed");
    expect(toDiskSpace(text, shape)).toBe("a\r\nb\nc\r\n");
  });
});
