/** A file's mode as a key names it: from disk as git tests it, or from git's index where git compared it. */
import { expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { chmodSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { diskModeTag, indexModesTrusted, modeTag } from "../../src/cache/file-mode.ts";
import { committedRepo, tempDir, writeFiles } from "../helpers/tmp.ts";

test("git's modes: a plain file and a deletion add nothing, executable and symlink do", () => {
  expect(modeTag(undefined)).toBe("");
  expect(modeTag("100644")).toBe("");
  expect(modeTag("000000")).toBe("");
  expect(modeTag("100755")).toBe("x");
  expect(modeTag("120000")).toBe("l");
});

test("on disk: the owner's x bit as git reads it, a symlink itself (not its target)", () => {
  const root = tempDir("cpilot-mode-");
  writeFiles(root, { "plain.txt": "x\n", "run.sh": "x\n", "group.sh": "x\n" });
  chmodSync(join(root, "run.sh"), 0o744);
  chmodSync(join(root, "group.sh"), 0o654);
  symlinkSync("run.sh", join(root, "link"));
  expect(diskModeTag(root, "plain.txt")).toBe("");
  expect(diskModeTag(root, "run.sh")).toBe("x");
  expect(diskModeTag(root, "group.sh")).toBe("");
  expect(diskModeTag(root, "link")).toBe("l");
  expect(diskModeTag(root, "missing")).toBe("");
});

test("the index's modes are trusted unless git is told not to compare them", () => {
  const root = committedRepo("cpilot-mode-", { "a.txt": "x\n" });
  expect(indexModesTrusted(root)).toBe(true);
  const off = committedRepo("cpilot-mode-", { "a.txt": "x\n" });
  execFileSync("git", ["config", "core.fileMode", "false"], { cwd: off });
  expect(indexModesTrusted(off)).toBe(false);
});
