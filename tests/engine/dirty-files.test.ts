/** The engine's look at the work tree (resync: "tree") reads git's state and never writes it. */
import { afterEach, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { dirtyFiles } from "../../src/engine/dirty-files.ts";
import { removeTempDirs, tempDir } from "../helpers/tmp.ts";

afterEach(removeTempDirs);

const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd });

test("a file whose stat changed but not its text: git's index is left as it was (no index.lock taken)", () => {
  const root = tempDir("cpilot-dirty-", { git: true });
  writeFileSync(join(root, "a.txt"), "a\n");
  git(root, "add", "a.txt");
  git(root, "commit", "-qm", "a");
  // Same text, new times: a plain `git status` refreshes the entry and rewrites the index.
  const later = new Date(Date.now() + 60_000);
  utimesSync(join(root, "a.txt"), later, later);
  writeFileSync(join(root, "new.txt"), "n\n");
  const index = join(root, ".git", "index");
  const before = { bytes: readFileSync(index), mtime: statSync(index).mtimeMs };
  expect(dirtyFiles(root)).toEqual(["new.txt"]);
  expect(readFileSync(index).equals(before.bytes)).toBe(true);
  expect(statSync(index).mtimeMs).toBe(before.mtime);
});

test("outside a git work tree: null", () => {
  expect(dirtyFiles(tempDir("cpilot-dirty-none-"))).toBeNull();
});
