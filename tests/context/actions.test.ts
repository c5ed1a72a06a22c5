import { expect, test } from "bun:test";
import { type ActionOutcome, applyAction, type UpdateCommand } from "../../src/context/index.ts";

const ctx = { file: "DOC.md", moveCompleted: false, now: new Date(2025, 0, 19, 12) };

const DOC = `# Project

## Tasks

- [ ] Write parser
- [ ] Write tests
  - with fixtures
- [x] Set up repo

## Decisions

### [2025-01-01] Use Bun

Because it is fast.

\`\`\`md
## Not a heading
- [ ] not a task
\`\`\`

### [2025-01-02] Use Biome

Lint and format.

## Notes

Free text.
`;

function run(command: Partial<UpdateCommand>, text = DOC, moveCompleted = false): ActionOutcome {
  const full: UpdateCommand = { file: "DOC.md", action: "add", content: "", ...command };
  return applyAction(text, full, { ...ctx, moveCompleted });
}

function text(outcome: ActionOutcome): string {
  if (!outcome.ok) throw new Error(`expected ok, got ${outcome.error}`);
  return outcome.text;
}

test("add appends at the end of the section, after its subsections, with a blank line", () => {
  const out = text(
    run({ section: "Decisions", content: "### [2025-01-19] Use Vitest\n\nFaster." }),
  );
  expect(out).toBe(
    DOC.replace(
      "Lint and format.\n",
      "Lint and format.\n\n### [2025-01-19] Use Vitest\n\nFaster.\n",
    ),
  );
});

test("add to a list continues the list without a blank line", () => {
  const out = text(run({ section: "Tasks", content: "- [ ] Write docs" }));
  expect(out).toBe(DOC.replace("- [x] Set up repo\n", "- [x] Set up repo\n- [ ] Write docs\n"));
});

test("add without a section appends to the end of the file", () => {
  expect(text(run({ content: "Appendix." }))).toBe(`${DOC}\nAppendix.\n`);
  expect(text(run({ content: "first" }, ""))).toBe("first\n");
  expect(text(run({ content: "x" }, "no newline"))).toBe("no newline\n\nx");
});

test("add creates a missing section at the end, at the file's usual section level", () => {
  const out = run({ section: "Open questions", content: "- Why?" });
  expect(text(out)).toBe(`${DOC}\n## Open questions\n\n- Why?\n`);
  expect(out.ok && out.warnings[0]).toContain("did not exist");
});

test("add to an empty section followed directly by a heading keeps them apart", () => {
  expect(text(run({ section: "A", content: "text" }, "## A\n## B\n"))).toBe(
    "## A\n\ntext\n\n## B\n",
  );
});

test("a heading inside a code fence is not a section and is never edited", () => {
  const out = run({ section: "Not a heading", content: "x" });
  expect(text(out)).toBe(`${DOC}\n## Not a heading\n\nx\n`);
  const removed = run({ action: "remove", id: "not a task" });
  expect(removed.ok).toBe(false);
});

test("update replaces the whole block up to the next heading of the same level", () => {
  const out = run({
    action: "update",
    id: "[2025-01-01] Use Bun",
    content: "### [2025-01-01] Use Node\n\nNo.",
  });
  expect(text(out)).toBe(
    DOC.replace(
      /### \[2025-01-01\] Use Bun[\s\S]*?```\n\n/,
      "### [2025-01-01] Use Node\n\nNo.\n\n",
    ),
  );
});

test("update matches a first line and replaces a list item with its nested lines", () => {
  const out = run({ action: "update", id: "Write tests", content: "- [ ] Write property tests" });
  expect(text(out)).toBe(
    DOC.replace("- [ ] Write tests\n  - with fixtures\n", "- [ ] Write property tests\n"),
  );
});

test("a partial id matching one block applies with a warning", () => {
  const out = run({ action: "update", id: "use biome", content: "### Use Biome 2\n\nYes." });
  expect(out.ok && out.warnings.join()).toContain("partial text");
});

test("an id matching nothing lists the nearest blocks and changes nothing", () => {
  const out = run({ action: "update", id: "Use Bunn", content: "x" });
  expect(out.ok).toBe(false);
  if (out.ok) return;
  expect(out.error).toBe('Cannot update "Use Bunn" in "DOC.md": nothing matches');
  expect(out.candidates?.[0]).toBe("line 12: ### [2025-01-01] Use Bun");
});

test("an id matching several blocks is an error listing them, never a guess", () => {
  const out = run({ action: "remove", id: "Use" });
  expect(out.ok).toBe(false);
  if (out.ok) return;
  expect(out.error).toContain("2 blocks match");
  expect(out.candidates).toEqual([
    "line 12: ### [2025-01-01] Use Bun",
    "line 21: ### [2025-01-02] Use Biome",
  ]);
});

test("section narrows the search; a missing section is an error for update", () => {
  const doc = "## A\n\n- item\n\n## B\n\n- item\n";
  expect(run({ action: "remove", id: "item" }, doc).ok).toBe(false);
  expect(text(run({ action: "remove", id: "item", section: "B" }, doc))).toBe(
    "## A\n\n- item\n\n## B\n",
  );
  const missing = run({ action: "remove", id: "item", section: "C" }, doc);
  expect(!missing.ok && missing.error).toBe(
    'Cannot remove "item" in "DOC.md": section "C" does not exist',
  );
});

test("remove deletes the block and the blank lines it leaves behind", () => {
  expect(text(run({ action: "remove", id: "Use Biome" }))).toBe(
    DOC.replace("### [2025-01-02] Use Biome\n\nLint and format.\n\n", ""),
  );
  expect(text(run({ action: "remove", id: "Free text." }))).toBe(
    DOC.replace("\n\nFree text.\n", "\n"),
  );
  expect(text(run({ action: "remove", id: "Write parser" }))).toBe(
    DOC.replace("- [ ] Write parser\n", ""),
  );
});

test("complete ticks the task and nothing else", () => {
  expect(text(run({ action: "complete", id: "Write parser" }))).toBe(
    DOC.replace("- [ ] Write parser", "- [x] Write parser"),
  );
});

test("complete prefers the open task when a done one has the same text", () => {
  const doc = "- [x] Ship\n- [ ] Ship\n";
  expect(text(run({ action: "complete", id: "Ship" }, doc))).toBe("- [x] Ship\n- [x] Ship\n");
  const done = run({ action: "complete", id: "Set up repo" });
  expect(done.ok && done.text).toBe(DOC);
  expect(done.ok && done.warnings.join()).toContain("already complete");
});

test("complete only matches tasks, not headings or fenced lines", () => {
  const out = run({ action: "complete", id: "not a task" });
  expect(out.ok).toBe(false);
});

test("complete with moveCompleted moves the task, dated, to a Completed section", () => {
  const out = text(run({ action: "complete", id: "Write tests" }, DOC, true));
  expect(out).toBe(
    `${DOC.replace("- [ ] Write tests\n  - with fixtures\n", "")}\n## Completed\n\n- [x] Write tests (completed 2025-01-19)\n  - with fixtures\n`,
  );
  const again = text(run({ action: "complete", id: "Write parser" }, out, true));
  expect(again).toContain(
    "## Completed\n\n- [x] Write tests (completed 2025-01-19)\n  - with fixtures\n- [x] Write parser (completed 2025-01-19)\n",
  );
});

test("CRLF documents stay CRLF and BOM-free text stays as is", () => {
  const crlf = DOC.replace(/\n/g, "\r\n");
  for (const command of [
    { section: "Tasks", content: "- [ ] new" },
    { action: "update", id: "Use Biome", content: "### Use Biome\n\nok" },
    { action: "remove", id: "Use Bun" },
    { action: "complete", id: "Write tests" },
  ] as Partial<UpdateCommand>[]) {
    const out = text(run(command, crlf, true));
    expect(out.replace(/\r\n/g, "")).not.toContain("\n");
    expect(out.replace(/\r\n/g, "\n")).toBe(text(run(command, DOC, true)));
  }
});

test("indentation and tabs in untouched lines are kept byte for byte", () => {
  const doc = "## A\n\n\t- tabbed\n    four spaces\n\n## B\n\nbody\n";
  expect(text(run({ action: "update", id: "body", content: "c" }, doc))).toBe(
    doc.replace("\nbody\n", "\nc\n"),
  );
});

test("a new section sits above the content's own heading level", () => {
  const out = run({ section: "Decisions", content: "## [2025-01-19] Use Vitest\n\nFaster." }, "");
  expect(text(out)).toBe("# Decisions\n\n## [2025-01-19] Use Vitest\n\nFaster.\n");
});
