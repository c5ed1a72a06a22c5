import { expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { readIndexBits } from "../../src/stage/index-bits.ts";
import { tempDir, writeFiles } from "../helpers/tmp.ts";

const git = (cwd: string, ...args: string[]): string =>
  execFileSync("git", args, { cwd, encoding: "utf8" });

/** What `git ls-files -v` says of the entries with a bit set. */
function gitSays(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of git(root, "ls-files", "-v", "-z").split("\0")) {
    const tag = line[0];
    if (tag === undefined || tag === "H") continue;
    out[line.slice(2)] = tag;
  }
  return out;
}

function bitsAsTags(root: string): Record<string, string> | null {
  const bits = readIndexBits(join(root, ".git", "index"), 20);
  if (bits === null) return null;
  const out: Record<string, string> = {};
  for (const [path, b] of bits) out[path] = b.skipWorktree ? (b.assumeUnchanged ? "s" : "S") : "h";
  return out;
}

test.each([2, 3, 4])("index version %d: the bits are what git ls-files -v says", (version) => {
  const root = tempDir("cpilot-index-bits-", { git: true });
  const files: Record<string, string> = {};
  for (let i = 0; i < 200; i++) {
    files[`f${i}.txt`] = `${i}\n`;
    files[`deep/folder/with-a-longer-name-${i}.txt`] = `${i}\n`;
  }
  writeFiles(root, { ...files, "naïve name.txt": "x\n" });
  git(root, "add", "-A");
  git(root, "update-index", "--index-version", String(version));
  git(
    root,
    "update-index",
    "--assume-unchanged",
    "f7.txt",
    "deep/folder/with-a-longer-name-150.txt",
  );
  git(root, "update-index", "--skip-worktree", "f7.txt", "f9.txt", "naïve name.txt");
  expect(bitsAsTags(root)).toEqual(gitSays(root));
  expect(Object.keys(gitSays(root)).length).toBe(4);
});

test("no bits: an empty map; a split index: null (git is asked instead)", () => {
  const root = tempDir("cpilot-index-bits-", { git: true });
  writeFiles(root, { "a.txt": "a\n" });
  git(root, "add", "-A");
  expect(readIndexBits(join(root, ".git", "index"), 20)?.size).toBe(0);
  git(root, "update-index", "--split-index");
  writeFiles(root, { "b.txt": "b\n" });
  git(root, "add", "b.txt");
  expect(readIndexBits(join(root, ".git", "index"), 20)).toBeNull();
  expect(readIndexBits(join(root, "no-such-index"), 20)).toBeNull();
});
