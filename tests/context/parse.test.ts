import { expect, test } from "bun:test";
import { parseUpdates, scanUpdates } from "../../src/context/index.ts";

test("parses a block with content containing <, > and code fences", () => {
  const text = [
    "Sure, here is the update.",
    '<context-update file="DECISIONS.md" action="add" section="Decisions">',
    "## [2025-01-19] Use Vitest",
    "",
    "Generic `Array<T>` and a > b, <b>html</b>.",
    "```ts",
    "const x: Map<string, number> = new Map();",
    "```",
    "</context-update>",
    "Done.",
  ].join("\n");
  const { updates, errors } = parseUpdates(text);
  expect(errors).toEqual([]);
  expect(updates).toEqual([
    {
      file: "DECISIONS.md",
      action: "add",
      section: "Decisions",
      line: 2,
      content: [
        "## [2025-01-19] Use Vitest",
        "",
        "Generic `Array<T>` and a > b, <b>html</b>.",
        "```ts",
        "const x: Map<string, number> = new Map();",
        "```",
      ].join("\n"),
    },
  ]);
});

test("multi-line opening tags and single-quoted, double-quoted and bare values", () => {
  const text = `<context-update
    file='TASKS.md'
    action=update
    id="Say &quot;hi&quot; &amp; wave"
  >
- [ ] new
</context-update>`;
  const { updates, errors } = parseUpdates(text);
  expect(errors).toEqual([]);
  expect(updates[0]).toMatchObject({
    file: "TASKS.md",
    action: "update",
    content: "- [ ] new",
    line: 1,
  });
  expect(updates[0]?.id).toBe('Say "hi" & wave');
});

test("several blocks in one text, in order, with their line numbers", () => {
  const text = [
    'a <context-update file="A.md" action="add">one</context-update>',
    "",
    '<context-update file="B.md" action="complete" id="Ship it" />',
    '<context-update file="C.md" action="remove" id="x">',
    "</context-update>",
  ].join("\n");
  const { updates, errors } = parseUpdates(text);
  expect(errors).toEqual([]);
  expect(updates.map((u) => [u.file, u.action, u.line, u.content])).toEqual([
    ["A.md", "add", 1, "one"],
    ["B.md", "complete", 3, ""],
    ["C.md", "remove", 4, ""],
  ]);
});

test("CRLF text: content comes back with \\n line endings", () => {
  const text =
    '<context-update file="A.md" action="add">\r\nline 1\r\nline 2\r\n</context-update>\r\n';
  expect(parseUpdates(text).updates[0]?.content).toBe("line 1\nline 2");
});

test("a closing tag inside a code fence is content; the one after the fence closes", () => {
  const text = [
    '<context-update file="DOCS.md" action="add">',
    "```md",
    '<context-update file="X.md" action="add">',
    "</context-update>",
    "```",
    "</context-update>",
  ].join("\n");
  const { updates, errors } = parseUpdates(text);
  expect(errors).toEqual([]);
  expect(updates).toHaveLength(1);
  expect(updates[0]?.content).toContain('<context-update file="X.md"');
});

test("unclosed and malformed blocks are reported with their line; well-formed ones still parse", () => {
  const text = [
    '<context-update file="A.md" action="add">first</context-update>',
    '<context-update file="B.md" action="add">',
    "never closed",
    '<context-update file="C.md" action="add">third</context-update>',
    '<context-update file="D.md action="add">bad quotes</context-update>',
    '<context-update file="E.md" action="add">fifth</context-update>',
    '<context-update file="F.md" action="add">',
    "runs off the end",
  ].join("\n");
  const { updates, errors } = parseUpdates(text);
  expect(updates.map((u) => u.file)).toEqual(["A.md", "C.md", "E.md"]);
  expect(errors.map((e) => e.line)).toEqual([2, 5, 7]);
  expect(errors[0]?.message).toContain("another one starts at line 4");
  expect(errors[1]?.message).toContain("malformed");
  expect(errors[2]?.message).toContain("never closed");
});

test("an opening tag that never ends and a value with a missing quote are errors", () => {
  expect(
    parseUpdates('text <context-update file="A.md" action="add"').errors[0]?.message,
  ).toContain("never closed with >");
  const { errors } = parseUpdates('<context-update file="A.md\naction="add">x</context-update>');
  expect(errors[0]?.message).toContain("no closing");
});

test("mentions in inline code and duplicated attributes", () => {
  expect(parseUpdates("write a `<context-update>` block").updates).toEqual([]);
  const { errors } = parseUpdates(
    '<context-update file="A.md" file="B.md" action="add">x</context-update>',
  );
  expect(errors[0]?.message).toContain("given twice");
});

test("unknown attributes are kept so validation can refuse them", () => {
  const { updates } = parseUpdates(
    '<context-update file="A.md" action="add" secton="X">x</context-update>',
  );
  expect(updates[0]?.unknownAttributes).toEqual(["secton"]);
});

test("scan of a growing text: an unclosed block at the end is left for later", () => {
  const head = 'one\n<context-update file="A.md" action="add">\npartial';
  const scan = scanUpdates(head, { final: false });
  expect(scan.updates).toEqual([]);
  expect(scan.errors).toEqual([]);
  expect(scan.consumed).toBe(4);
  const next = scanUpdates(`${head.slice(scan.consumed)}\n</context-update>\n<context-up`, {
    final: false,
    firstLine: 2,
  });
  expect(next.updates.map((u) => [u.line, u.content])).toEqual([[2, "partial"]]);
  expect(next.updates).toHaveLength(1);
  expect(`${head.slice(scan.consumed)}\n</context-update>\n<context-up`.slice(next.consumed)).toBe(
    "<context-up",
  );
});
