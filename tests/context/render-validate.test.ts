import { expect, test } from "bun:test";
import { appendFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  followUpdates,
  renderReport,
  summarize,
  type UpdateCommand,
  validateUpdate,
} from "../../src/context/index.ts";
import { tempDir, waitFor } from "./_helpers.ts";

const command = (fields: Partial<UpdateCommand>): UpdateCommand => ({
  file: "TASKS.md",
  action: "add",
  content: "x",
  ...fields,
});

test("validateUpdate reports every problem at once and nothing for a good command", () => {
  expect(validateUpdate(command({}))).toEqual([]);
  expect(validateUpdate(command({ file: "", action: "", content: "" }))).toEqual([
    "file is missing",
    "action is missing",
  ]);
  expect(validateUpdate(command({ action: "update", content: "" }))).toEqual([
    "update needs an id",
    "update needs content",
  ]);
  expect(validateUpdate(command({ action: "complete", id: " " }))).toEqual([
    "complete needs an id",
  ]);
  expect(validateUpdate(command({ content: "```ts\nopen" }))).toEqual([
    "content opens a ``` code fence that never closes",
  ]);
  expect(validateUpdate(command({ file: "notes/T.md" }))).toHaveLength(1);
  expect(validateUpdate(command({ file: "notes/T.md" }), { allowedFiles: ["**/*.md"] })).toEqual(
    [],
  );
});

test("renderReport says what applied, what failed, why, and how to fix it", () => {
  const report = {
    results: [
      {
        file: "TASKS.md",
        action: "add",
        section: "Tasks",
        line: 3,
        ok: true,
        diff: "",
        warnings: [],
      },
      {
        file: "DECISIONS.md",
        action: "update",
        id: "Use Jest",
        line: 9,
        ok: false,
        error: 'Cannot update "Use Jest" in "DECISIONS.md": nothing matches',
        hint: "nearest: line 5: ## Use Vitest",
        diff: "",
        warnings: [],
      },
    ],
    parseErrors: [{ line: 20, message: "<context-update> is never closed", hint: "end it" }],
  };
  expect(summarize(report)).toEqual({ applied: 1, failed: 1, unreadable: 1, ok: false });
  expect(renderReport(report)).toBe(
    [
      "context updates: 1 applied, 1 failed, 1 could not be parsed",
      'applied: add TASKS.md in section "Tasks" (block at line 3)',
      'FAILED: update DECISIONS.md "Use Jest" (block at line 9)',
      '  Cannot update "Use Jest" in "DECISIONS.md": nothing matches',
      "  hint: nearest: line 5: ## Use Vitest",
      "FAILED: block at line 20: <context-update> is never closed",
      "  hint: end it",
    ].join("\n"),
  );
  expect(renderReport({ results: [], parseErrors: [] })).toBe(
    "context updates: no <context-update> blocks found",
  );
});

test("followUpdates hands each block over once, also when the file is rewritten", async () => {
  const { dir, cleanup } = tempDir();
  try {
    const log = join(dir, "log");
    const one = '<context-update file="A.md" action="add">one</context-update>\n';
    const two = '<context-update file="A.md" action="add">two</context-update>\n';
    writeFileSync(log, one);
    const seen: string[] = [];
    // idle far longer than the test's pauses, which a busy machine stretches
    const following = followUpdates(log, {
      pollMs: 20,
      idleExitMs: 3000,
      onBlocks: (updates) => seen.push(...updates.map((u) => u.content)),
    });
    await waitFor(() => seen.length === 1, 30_000);
    writeFileSync(log, "");
    await Bun.sleep(100);
    writeFileSync(log, one + two);
    expect(await following).toBe("idle");
    expect(seen).toEqual(["one", "two"]);
  } finally {
    cleanup();
  }
});

test("followUpdates reports a block that never closes instead of holding the log after it", async () => {
  const { dir, cleanup } = tempDir();
  try {
    const log = join(dir, "log");
    const open = `<context-update file="A.md" action="add">${"x".repeat(5 * 1024 * 1024)}\n`;
    const later = '<context-update file="B.md" action="add">later</context-update>\n';
    writeFileSync(log, open);
    const seen: string[] = [];
    const errors: string[] = [];
    const following = followUpdates(log, {
      pollMs: 20,
      idleExitMs: 3000,
      onBlocks: (updates, problems) => {
        seen.push(...updates.map((u) => u.content));
        errors.push(...problems.map((p) => p.message));
      },
    });
    // reported while following, not only at the end: the 5 MB are not held meanwhile
    let ended = false;
    void following.then(() => {
      ended = true;
    });
    await waitFor(() => errors.some((m) => m.includes("never closed")), 30_000);
    expect(ended).toBe(false);
    appendFileSync(log, later);
    expect(await following).toBe("idle");
    expect(seen).toEqual(["later"]);
  } finally {
    cleanup();
  }
});
