// Context updates cost what their changes cost: the lines scanned, joined into text and
// diffed grow with the number of blocks, not with its square. Counted, not timed.
import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createTwoFilesPatch } from "diff";
import { docWork } from "../../src/context/_doc.ts";
import { applyAction, applyUpdates, type UpdateCommand } from "../../src/context/index.ts";
import { tempDir } from "../helpers/tmp.ts";

/** Apply `blocks` adds to one section, then as many completes, in one batch; the work done. */
function workFor(blocks: number, moveCompleted: boolean): number {
  const dir = tempDir("cpilot-linear-");
  mkdirSync(join(dir, ".context"));
  let text = "";
  for (let i = 0; i < blocks; i++)
    text += `<context-update file="TASKS.md" action="add" section="Tasks">\n- [ ] task ${i}\n</context-update>\n`;
  for (let i = 0; i < blocks; i += 2)
    text += `<context-update file="TASKS.md" action="complete" id="task ${i}"></context-update>\n`;
  text += `<context-update file="TASKS.md" action="update" id="task 1">\n- [ ] task one\n</context-update>\n`;
  text += `<context-update file="TASKS.md" action="remove" id="task 3"></context-update>\n`;
  docWork.scanned = 0;
  docWork.joined = 0;
  docWork.diffed = 0;
  const report = applyUpdates(text, {
    contextDir: join(dir, ".context"),
    projectRoot: dir,
    moveCompleted,
  });
  expect(report.results.every((r) => r.ok)).toBe(true);
  expect(report.results).toHaveLength(blocks + blocks / 2 + 2);
  return docWork.scanned + docWork.joined + docWork.diffed;
}

for (const moveCompleted of [false, true]) {
  test(`8 times the blocks is at most 10 times the work${moveCompleted ? " (completed tasks moved)" : ""}`, () => {
    const small = workFor(250, moveCompleted);
    const large = workFor(2000, moveCompleted);
    // Parsing, copying and diffing the whole file for each block made this 64 times.
    expect(large / small).toBeLessThan(10);
  }, 60_000);
}

test("each update's diff is numbered as in the whole file", () => {
  const dir = tempDir("cpilot-linear-");
  mkdirSync(join(dir, ".context"));
  let text = "";
  for (let i = 0; i < 30; i++)
    text += `<context-update file="TASKS.md" action="add" section="Tasks">\n- [ ] task ${i}\n</context-update>\n`;
  text += `<context-update file="TASKS.md" action="complete" id="task 20"></context-update>\n`;
  const report = applyUpdates(text, { contextDir: join(dir, ".context"), projectRoot: dir });
  // "# Tasks", a blank line, then task 0 on line 3: task 20 is line 23
  expect(report.results.at(-1)?.diff).toBe(
    [
      "--- a/TASKS.md",
      "+++ b/TASKS.md",
      "@@ -19,9 +19,9 @@",
      " - [ ] task 16",
      " - [ ] task 17",
      " - [ ] task 18",
      " - [ ] task 19",
      "-- [ ] task 20",
      "+- [x] task 20",
      " - [ ] task 21",
      " - [ ] task 22",
      " - [ ] task 23",
      " - [ ] task 24",
      "",
    ].join("\n"),
  );
});

test("each update's diff is the whole file's diff, moves and far-apart changes too", () => {
  const dir = tempDir("cpilot-linear-");
  mkdirSync(join(dir, ".context"));
  const body = Array.from({ length: 40 }, (_, i) => `- [ ] job ${i}`).join("\n");
  const start = `# Board\n\n## Tasks\n\n${body}\n\n## Notes\n\nkeep\n\n## Completed\n\n- [x] old (completed 2020-01-01)\n`;
  writeFileSync(join(dir, ".context", "TASKS.md"), start);
  const commands: UpdateCommand[] = [
    { file: "TASKS.md", action: "complete", id: "job 3", content: "" },
    { file: "TASKS.md", action: "complete", id: "job 39", content: "" },
    { file: "TASKS.md", action: "add", section: "Notes", content: "more\n\nand more" },
    { file: "TASKS.md", action: "remove", id: "job 0", content: "" },
    { file: "TASKS.md", action: "update", id: "Notes", content: "## Notes\n\nnew" },
    { file: "TASKS.md", action: "add", section: "Later", content: "- [ ] then" },
  ];
  const now = new Date(2026, 0, 2);
  const context = { file: "TASKS.md", moveCompleted: true, now };
  const report = applyUpdates(commands, {
    contextDir: join(dir, ".context"),
    projectRoot: dir,
    moveCompleted: true,
    now,
    dryRun: true,
  });
  let text = start;
  commands.forEach((command, i) => {
    const out = applyAction(text, command, context);
    if (!out.ok) throw new Error(out.error);
    const whole = createTwoFilesPatch(
      "a/TASKS.md",
      "b/TASKS.md",
      text,
      out.text,
      undefined,
      undefined,
      {
        context: 4,
      },
    ).replace(/^=+\n/, "");
    expect(report.results[i]?.diff).toBe(whole);
    text = out.text;
  });
});
