import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileContentId } from "../../src/cache/content.ts";
import type { Diagnostic } from "../../src/model/diagnostic.ts";
import { committedRepo } from "../helpers/tmp.ts";
import { badWords, check, git, verdicts } from "./_content-checker.ts";

const repo = (files: Record<string, string>) => committedRepo("cpilot-content-", files);

for (const whole of [false, true])
  test(`a record of content that is gone says nothing about the content before the edit (${whole ? "whole project" : "per file"})`, () => {
    const root = repo({ "a.txt": "one\n", "b.txt": "two\n" });
    const files = ["a.txt", "b.txt"];
    expect(verdicts(check(root, files, { whole }))).toEqual([]);
    writeFileSync(join(root, "a.txt"), "one\nBAD added\n");
    // `cpilot check` fails on it: a record of that content.
    check(root, files, { whole });
    git(root, "checkout", "--", "a.txt");
    // A passing check of another file, as a variant: changes nothing.
    check(root, ["b.txt"], { whole });
    // The agent writes the same line: its own error, whatever was recorded of that content.
    writeFileSync(join(root, "a.txt"), "one\nBAD added\n");
    expect(verdicts(check(root, files, { whole, edited: ["a.txt"] }))).toEqual(["a.txt:2 new"]);
  });

test("a file as in HEAD is judged by HEAD's record: its errors are old however it got there", () => {
  const root = repo({ "a.txt": "BAD old\n" });
  check(root, ["a.txt"]);
  writeFileSync(join(root, "a.txt"), "BAD old\nBAD mine\n");
  expect(verdicts(check(root, ["a.txt"], { edited: ["a.txt"] }))).toEqual([
    "a.txt:1 old",
    "a.txt:2 new",
  ]);
  // Reverted to HEAD's content by the agent: nothing of its own is left.
  git(root, "checkout", "--", "a.txt");
  expect(verdicts(check(root, ["a.txt"], { edited: ["a.txt"] }))).toEqual(["a.txt:1 old"]);
});

test("a commit moves what is old: what was committed is the person's", () => {
  const root = repo({ "a.txt": "fine\n" });
  check(root, ["a.txt"]);
  writeFileSync(join(root, "a.txt"), "fine\nBAD kept\n");
  expect(verdicts(check(root, ["a.txt"], { edited: ["a.txt"] }))).toEqual(["a.txt:2 new"]);
  git(root, "commit", "-qam", "kept");
  check(root, ["a.txt"]);
  writeFileSync(join(root, "a.txt"), "top\nfine\nBAD kept\n");
  expect(verdicts(check(root, ["a.txt"], { edited: ["a.txt"] }))).toEqual(["a.txt:3 old"]);
});

test("no record of the content before: on a line the edit changed, new; elsewhere, not known (never old)", () => {
  const root = repo({ "a.txt": "BAD old\nfine\n", "b.txt": "BAD other\n" });
  writeFileSync(join(root, "a.txt"), "BAD old\nBAD mine\n");
  writeFileSync(join(root, "b.txt"), "BAD other\nmore\n");
  expect(verdicts(check(root, ["a.txt", "b.txt"], { edited: ["a.txt"] }))).toEqual([
    "a.txt:1 unverified",
    "a.txt:2 new",
    "b.txt:1 unverified",
  ]);
});

test("a failed run of a tool that stops early records no file clean, and what its record lacks is not called new", () => {
  const root = repo({ "a.rs": "BAD lint\nBAD lint two\n", "b.rs": "fine\n" });
  // rustc stops before its lints while a crate does not compile: only one error is printed.
  const first: Diagnostic[] = [
    {
      file: "a.rs",
      line: 1,
      column: 1,
      severity: "error",
      code: "E0425",
      message: "cannot find value",
      tool: "rustc",
    },
  ];
  check(root, ["a.rs", "b.rs"], { diagnostics: first, tool: "rustc" });
  writeFileSync(join(root, "b.rs"), "BAD mine\n");
  writeFileSync(join(root, "a.rs"), "BAD lint\nBAD lint two\nmore\n");
  // b.rs was never read: its error is not found clean before, it is the edit's (changed line).
  const after = check(root, ["a.rs", "b.rs"], { edited: ["a.rs", "b.rs"], tool: "clippy" });
  expect(verdicts(after)).toEqual(["a.rs:1 unverified", "a.rs:2 unverified", "b.rs:1 new"]);
});

test("an output read in part records no file clean and leaves out the last file it reached", () => {
  const root = repo({ "a.txt": "BAD 1\n", "b.txt": "BAD 1\nBAD 2\n", "c.txt": "fine\n" });
  const files = ["a.txt", "b.txt", "c.txt"];
  // Cut after b.txt's first: b.txt may go on past the cut, c.txt was not reached.
  const cut = check(root, files, {
    diagnostics: [
      {
        file: "a.txt",
        line: 1,
        column: 1,
        severity: "error",
        code: "bad",
        message: "m",
        tool: "x",
      },
      {
        file: "b.txt",
        line: 1,
        column: 1,
        severity: "error",
        code: "bad",
        message: "m",
        tool: "x",
      },
    ],
    partial: true,
  });
  expect(cut.length).toBe(2);
  for (const f of files) writeFileSync(join(root, f), `top\n${f === "c.txt" ? "BAD" : "BAD 1"}\n`);
  const d = (file: string, line: number): Diagnostic => ({
    file,
    line,
    column: 1,
    severity: "error",
    code: "bad",
    message: "m",
    tool: "x",
  });
  expect(
    verdicts(
      check(root, files, {
        edited: files,
        diagnostics: [d("a.txt", 2), d("b.txt", 2), d("c.txt", 2)],
      }),
    ),
  ).toEqual(["a.txt:2 old", "b.txt:2 unverified", "c.txt:2 new"]);
});

test("what a check found is not recorded under content its file took while it ran", () => {
  const root = repo({ "a.txt": "BAD x\nBAD x\n" });
  // The check reads two; the agent's edit removes one before the check ends.
  const readBefore = { read: { "a.txt": fileContentId(root, "a.txt") }, whole: null };
  const found = badWords(root, ["a.txt"]);
  writeFileSync(join(root, "a.txt"), "BAD x\n");
  check(root, ["a.txt"], { diagnostics: found, readBefore });
  git(root, "commit", "-qam", "one");
  // HEAD's content was never checked: the second BAD the agent adds back is its own.
  writeFileSync(join(root, "a.txt"), "BAD x\nBAD x\n");
  expect(verdicts(check(root, ["a.txt"], { edited: ["a.txt"] }))).toEqual([
    "a.txt:1 unverified",
    "a.txt:2 new",
  ]);
});
