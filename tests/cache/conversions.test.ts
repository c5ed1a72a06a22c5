/**
 * Whether git may call a file unchanged whose bytes differ from its blob: found from the
 * attribute files and settings git itself reads, in real repositories.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gitConverts } from "../../src/cache/conversions.ts";
import { committedRepo, tempDir } from "../helpers/tmp.ts";

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", args, { cwd, encoding: "utf8", stdio: "pipe" }).trim();

// Every test file shares this process's environment: what is changed here is put back.
const saved = { HOME: process.env.HOME, XDG_CONFIG_HOME: process.env.XDG_CONFIG_HOME };

beforeAll(() => {
  // the person's own git settings are not this test's
  process.env.HOME = tempDir("cpilot-conv-home-");
  delete process.env.XDG_CONFIG_HOME;
});

afterAll(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

/** gitConverts for `root` as a snapshot of it asks: its HEAD tree, its changed files. */
function converts(root: string): boolean {
  const tree = git(root, "rev-parse", "HEAD:./");
  const dirty = git(root, "status", "--porcelain", "-z", "--untracked-files=all", ".")
    .split("\0")
    .filter(Boolean)
    .map((entry) => entry.slice(3));
  return gitConverts(root, tree, dirty);
}

test("no attributes, or attributes that convert nothing: git compares the bytes as they are", () => {
  expect(converts(committedRepo("cpilot-conv-", { "a.txt": "x\n" }))).toBe(false);
  const plain = committedRepo("cpilot-conv-", {
    ".gitattributes": "*.png binary\n*.txt -text\ndocs/** linguist-documentation\n",
    "a.txt": "x\n",
  });
  expect(converts(plain)).toBe(false);
});

test.each([
  "*.txt ident\n",
  "*.c filter=crypt\n",
  "*.txt working-tree-encoding=UTF-16LE\n",
  "[attr]mine ident\n*.c mine\n",
])("%p in a committed .gitattributes converts", (attributes) => {
  const root = committedRepo("cpilot-conv-", { ".gitattributes": attributes, "a.txt": "x\n" });
  expect(converts(root)).toBe(true);
});

// What is committed is the blob the key names: a file that differs from it only by its line
// endings is committed as the blob; an LFS pointer names the content by its own hash.
test.each([
  "* text=auto\n",
  "*.sh eol=lf\n",
  "*.txt text eol=crlf\n",
  "*.bin filter=lfs diff=lfs merge=lfs -text\n",
])("%p in a committed .gitattributes: line endings and LFS do not count", (attributes) => {
  const root = committedRepo("cpilot-conv-", { ".gitattributes": attributes, "a.txt": "x\n" });
  expect(converts(root)).toBe(false);
});

test("a .gitattributes in a folder, untracked, or above a package's root", () => {
  const nested = committedRepo("cpilot-conv-", {
    "lib/.gitattributes": "*.txt ident\n",
    "a.txt": "x\n",
  });
  expect(converts(nested)).toBe(true);

  const untracked = committedRepo("cpilot-conv-", { "a.txt": "x\n" });
  writeFileSync(join(untracked, ".gitattributes"), "*.txt ident\n");
  expect(converts(untracked)).toBe(true);

  const above = committedRepo("cpilot-conv-", {
    ".gitattributes": "*.txt ident\n",
    "pkg/a.txt": "x\n",
  });
  expect(converts(join(above, "pkg"))).toBe(true);
});

test("a tracked .gitattributes deleted from disk: git reads it from its index", () => {
  const root = committedRepo("cpilot-conv-", { ".gitattributes": "*.txt ident\n", "a.txt": "x\n" });
  git(root, "rm", "-q", "--cached", ".gitattributes");
  git(root, "commit", "-qm", "untracked now");
  writeFileSync(join(root, ".gitattributes"), "*.png binary\n");
  expect(converts(root)).toBe(false);
  const other = committedRepo("cpilot-conv-", {
    ".gitattributes": "*.txt ident\n",
    "a.txt": "x\n",
  });
  execFileSync("rm", [join(other, ".gitattributes")]);
  expect(converts(other)).toBe(true);
});

test("info/attributes and the repository's config", () => {
  const info = committedRepo("cpilot-conv-", { "a.txt": "x\n" });
  mkdirSync(join(info, ".git", "info"), { recursive: true });
  writeFileSync(join(info, ".git", "info", "attributes"), "*.txt ident\n");
  expect(converts(info)).toBe(true);

  const input = committedRepo("cpilot-conv-", { "a.txt": "x\n" });
  git(input, "config", "core.autocrlf", "input");
  expect(converts(input)).toBe(false);

  const off = committedRepo("cpilot-conv-", { "a.txt": "x\n" });
  git(off, "config", "core.autocrlf", "false");
  expect(converts(off)).toBe(false);

  const elsewhere = committedRepo("cpilot-conv-", { "a.txt": "x\n" });
  const file = join(tempDir("cpilot-conv-attrs-"), "attributes");
  writeFileSync(file, "*.txt ident\n");
  git(elsewhere, "config", "core.attributesFile", file);
  expect(converts(elsewhere)).toBe(true);
});
