/** The engine's look at the work tree (resync: "tree") reads git's state and never writes it. */
import { expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { dirtyFiles } from "../../src/engine/dirty-files.ts";
import { tempDir } from "../helpers/tmp.ts";

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

test("a root below the work tree's top: its own files, named from the root (not from git's top)", () => {
  const top = tempDir("cpilot-dirty-sub-", { git: true });
  const root = join(top, "sub");
  mkdirSync(root);
  writeFileSync(join(root, "gen.out"), "old\n");
  writeFileSync(join(top, "top.txt"), "t\n");
  git(top, "add", "-A");
  git(top, "commit", "-qm", "a");
  writeFileSync(join(root, "gen.out"), "new\n");
  writeFileSync(join(root, "new file.txt"), "n\n");
  writeFileSync(join(top, "top.txt"), "t2\n");
  expect(dirtyFiles(root)?.sort()).toEqual(["gen.out", "new file.txt"]);
});
