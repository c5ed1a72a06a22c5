import { describe, expect, test } from "bun:test";
import { textAfterCall } from "../../../../src/agents/claude/mod/apply-call.ts";
import { deriveEdit } from "../../../../src/agents/claude/mod/derive-edit.ts";

/** The derived Edit, applied as Claude Code applies an Edit. */
function applied(before: string, after: string): string | null {
  const edit = deriveEdit(before, after);
  if (edit === null) return null;
  return textAfterCall({ tool: "Edit", input: { file_path: "/x", ...edit } }, before);
}

describe("deriveEdit", () => {
  const cases: [string, string, string][] = [
    ["one line changed", "a\nb\nc\n", "a\nB\nc\n"],
    ["lines added in the middle", "a\nc\n", "a\nb1\nb2\nc\n"],
    ["lines removed", "a\nb\nc\nd\n", "a\nd\n"],
    ["the first line", "x=1\nb\n", "x = 1;\nb\n"],
    ["the last line, no newline at the end", "a\nx=1", "a\nx = 1;\n"],
    ["repeated lines around the change", "}\n}\nx\n}\n}\n", "}\n}\ny\n}\n}\n"],
    ["a change where the same line repeats", "a\na\na\n", "a\nb\na\n"],
    ["text added at the end", "a\n", "a\nb\n"],
    ["text added at the start", "b\n", "a\nb\n"],
    ["everything", "x", "y"],
  ];
  for (const [name, before, after] of cases) {
    test(`${name}: applied once, it gives the text after`, () => {
      const edit = deriveEdit(before, after);
      expect(edit).not.toBeNull();
      // whole lines, found exactly once: an Edit the model could have written
      expect(before.split(edit!.old_string).length).toBe(2);
      expect(applied(before, after)).toBe(after);
    });
  }

  test("no Edit for equal texts, or for an empty file (only a Write fills one)", () => {
    expect(deriveEdit("a\n", "a\n")).toBeNull();
    expect(deriveEdit("", "a\n")).toBeNull();
  });
});

describe("textAfterCall", () => {
  const edit = (input: Record<string, unknown>, current: string | null) =>
    textAfterCall({ tool: "Edit", input: { file_path: "/x", ...input } }, current);

  test("a Write is its content; an Edit replaces its one occurrence", () => {
    expect(textAfterCall({ tool: "Write", input: { content: "hi" } }, null)).toBe("hi");
    expect(edit({ old_string: "b", new_string: "B" }, "abc")).toBe("aBc");
    expect(edit({ old_string: "b", new_string: "B", replace_all: true }, "bab")).toBe("BaB");
  });

  test("what Claude Code refuses stays unworked: missing, repeated, empty or equal strings, no file", () => {
    expect(edit({ old_string: "z", new_string: "Z" }, "abc")).toBeNull();
    expect(edit({ old_string: "b", new_string: "B" }, "bab")).toBeNull();
    expect(edit({ old_string: "", new_string: "B" }, "abc")).toBeNull();
    expect(edit({ old_string: "b", new_string: "b" }, "abc")).toBeNull();
    expect(edit({ old_string: "b", new_string: "B" }, null)).toBeNull();
    expect(edit({ old_string: 1, new_string: "B" }, "abc")).toBeNull();
    expect(textAfterCall({ tool: "Write", input: {} }, "abc")).toBeNull();
  });
});
