import { expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
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

test.each([2, 3, 4])(
  "index version %d: names of any length over many reads of the file",
  (version) => {
    // names past the 4095 bytes an entry's flags can count, and an index many times the
    // window it is read through, with bits set all along it (entries made without files)
    const root = tempDir("cpilot-index-bits-", { git: true });
    const blob = git(root, "hash-object", "-w", "--stdin").trim();
    const folder = (n: number): string => `${"d".repeat(200)}${n}/`;
    const names: string[] = [];
    for (let i = 0; i < 1500; i++) {
      const depth = i % 100 === 7 ? 22 : i % 3;
      let name = "";
      for (let d = 0; d < depth; d++) name += folder(d);
      names.push(`${name}f${String(i).padStart(4, "0")}-${"n".repeat(i % 90)}.txt`);
    }
    execFileSync("git", ["update-index", "--add", "--index-info"], {
      cwd: root,
      input: names.map((n) => `100644 ${blob}\t${n}\n`).join(""),
    });
    git(root, "update-index", "--index-version", String(version));
    const picked = names.filter((_n, i) => i % 50 === 7 || i % 100 === 7);
    git(root, "update-index", "--skip-worktree", ...picked.filter((_n, i) => i % 2 === 0));
    git(root, "update-index", "--assume-unchanged", ...picked.filter((_n, i) => i % 3 === 0));
    expect(Math.max(...picked.map((n) => n.length))).toBeGreaterThan(4095);
    const said = gitSays(root);
    expect(Object.keys(said).length).toBe(20);
    expect(bitsAsTags(root)).toEqual(said);
  },
);

test("an index cut short anywhere: null, never a throw or a wrong answer", () => {
  const root = tempDir("cpilot-index-bits-", { git: true });
  const files: Record<string, string> = {};
  for (let i = 0; i < 40; i++) files[`f${i}.txt`] = `${i}\n`;
  writeFiles(root, files);
  git(root, "add", "-A");
  git(root, "update-index", "--skip-worktree", "f39.txt");
  const index = readFileSync(join(root, ".git", "index"));
  const cut = join(root, "cut-index");
  // up to the last entry's end, every cut loses part of an entry
  const lastEntryEnd = index.indexOf(Buffer.from("f9.txt\0")) + 7;
  for (let size = 0; size < lastEntryEnd; size += 7) {
    writeFileSync(cut, index.subarray(0, size));
    expect(readIndexBits(cut, 20)).toBeNull();
  }
  expect(readIndexBits(join(root, ".git", "index"), 20)?.get("f39.txt")?.skipWorktree).toBe(true);
});

test.each([2, 3, 4])(
  "index version %d: the ids of the wanted names are what git ls-files -s says, but for links and intent-to-add",
  (version) => {
    const root = tempDir("cpilot-index-ids-", { git: true });
    const files: Record<string, string> = {};
    for (let i = 0; i < 100; i++) {
      files[`pkg${i}/package.json`] = `{"n":${i}}\n`;
      files[`pkg${i}/deep/index-${i}.ts`] = `${i}\n`;
    }
    writeFiles(root, { ...files, "package.json": "{}\n", "not-package.json": "x\n" });
    symlinkSync("package.json", join(root, "pkg0", "tsconfig.json"));
    writeFiles(root, { "added/tsconfig.json": "{}\n" });
    git(root, "add", "-A");
    rmSync(join(root, "added", "tsconfig.json"));
    git(root, "rm", "-q", "--cached", "added/tsconfig.json");
    writeFiles(root, { "added/tsconfig.json": "{}\n" });
    git(root, "add", "-N", "added/tsconfig.json");
    git(root, "update-index", "--index-version", String(version));
    const ids = new Map<string, string>();
    const wanted = new Set(["package.json", "tsconfig.json"]);
    expect(readIndexBits(join(root, ".git", "index"), 20, { wanted, ids })).not.toBeNull();
    const expected = new Map<string, string>();
    for (const line of git(root, "ls-files", "-s", "-z").split("\0")) {
      const [info, path] = line.split("\t") as [string, string | undefined];
      const [mode, id] = info.split(" ");
      const base = path?.slice(path.lastIndexOf("/") + 1) ?? "";
      if (path && wanted.has(base) && mode === "100644" && path !== "added/tsconfig.json")
        expected.set(path, id as string);
    }
    expect(expected.size).toBe(101);
    expect(new Map([...ids].sort())).toEqual(new Map([...expected].sort()));
  },
);
