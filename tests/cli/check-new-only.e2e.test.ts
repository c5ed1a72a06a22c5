/** `cpilot check` tells new from old relative to HEAD, and `--new-only` fails only on new ones. */
import { expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { cpilot } from "../helpers/binary.ts";
import { committedRepo } from "../helpers/tmp.ts";

const CHECKER = {
  name: "bad",
  pattern: "*.txt",
  timeout: 30,
  run: `grep -n -H BAD "$@" | sed -E 's/^([^:]+):([0-9]+):.*$/\\1:\\2:1: error: the word is banned [bad]/'; ! grep -q BAD "$@"`,
};

function project(): string {
  return committedRepo("cpilot-new-only-", {
    ".gitignore": ".cpilot/\n",
    "callbacks.config.json": JSON.stringify({ callbacks: [CHECKER] }),
    "old.txt": "BAD since long ago\n",
    "b.txt": "fine\n",
  });
}

test("check marks what is new since HEAD; --new-only fails only on that", () => {
  const root = project();
  // Old errors: a plain check fails, --new-only passes.
  expect(cpilot(["check", "--all"], { cwd: root }).code).toBe(1);
  expect(cpilot(["check", "--all", "--new-only"], { cwd: root }).code).toBe(0);
  writeFileSync(join(root, "b.txt"), "fine\nBAD new\n");
  writeFileSync(join(root, "old.txt"), "top\nBAD since long ago\n");
  const r = cpilot(["check", "--all", "--new-only"], { cwd: root });
  expect(r.code).toBe(1);
  const text = r.stderr;
  expect(text).toContain("b.txt:2:1 error bad: the word is banned");
  expect(text).toContain("new since HEAD:");
  expect(text).toContain("already there in HEAD, or not known:");
  expect(text.indexOf("b.txt:2:1")).toBeLessThan(text.indexOf("already there in HEAD"));
  expect(text.indexOf("already there in HEAD")).toBeLessThan(text.indexOf("old.txt:2:1"));
  const json = JSON.parse(cpilot(["check", "--all", "--json"], { cwd: root }).stdout) as {
    runs: { diagnostics: { file: string; baseline?: string }[] }[];
  };
  const marks = json.runs[0]?.diagnostics.map((d) => `${d.file} ${d.baseline}`).sort();
  expect(marks).toEqual(["b.txt new", "old.txt unchanged"]);
  // Staged: the same, relative to HEAD.
  spawnSync("git", ["add", "-A"], { cwd: root });
  const staged = cpilot(["check", "--staged", "--new-only"], { cwd: root });
  expect(staged.code).toBe(1);
  writeFileSync(join(root, "b.txt"), "fine\n");
  spawnSync("git", ["add", "-A"], { cwd: root });
  expect(cpilot(["check", "--staged", "--new-only"], { cwd: root }).code).toBe(0);
  expect(cpilot(["check", "--staged"], { cwd: root }).code).toBe(1);
}, 60_000);

test("--new-only still fails where cpilot cannot tell: no record of HEAD's content", () => {
  const root = project();
  writeFileSync(join(root, "old.txt"), "top\nBAD since long ago\n");
  // Never checked as committed: the error on an unchanged line cannot be placed.
  expect(cpilot(["check", "old.txt", "--new-only"], { cwd: root }).code).toBe(1);
}, 60_000);
