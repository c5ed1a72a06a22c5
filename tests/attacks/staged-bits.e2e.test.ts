/**
 * `check --staged` checks the staged blob of a file whose assume-unchanged or skip-worktree
 * bit is set (git does not look at its working copy, so it was never set aside), and puts
 * everything back as it was, bits included.
 */
import { describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { cpilot } from "../helpers/binary.ts";
import { tempDir, writeFiles } from "../helpers/tmp.ts";

const git = (cwd: string, ...args: string[]): string =>
  execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

function repo(callbacks: unknown[]): string {
  const root = tempDir("cpilot-attack-bits-", { git: true });
  writeFiles(root, {
    "callbacks.config.json": JSON.stringify({ callbacks }),
    ".gitignore": ".cpilot/\n",
    "a.txt": "a\n",
  });
  git(root, "add", "-A");
  git(root, "commit", "-qm", "init");
  return root;
}

const NO_BAD = { name: "no-bad", pattern: "a.txt", timeout: 30, run: "! grep -q bad a.txt" };
/** NO_BAD that also copies what it read to `seen`. */
const noBadSeen = (seen: string) => ({ ...NO_BAD, run: `cp a.txt "${seen}"; ! grep -q bad a.txt` });
const BITS = [
  ["assume-unchanged", "h a.txt\n"],
  ["skip-worktree", "S a.txt\n"],
] as const;

describe.each(BITS)("a staged file with %s set", (bit, tag) => {
  test("the staged blob is checked, not the working copy; the copy and the bit are as before", () => {
    const seen = join(tempDir("cpilot-seen-"), "a.txt");
    const root = repo([noBadSeen(seen)]);
    writeFiles(root, { "a.txt": "bad\n" });
    git(root, "add", "a.txt");
    writeFiles(root, { "a.txt": "good, in the working copy only\n" });
    git(root, "update-index", `--${bit}`, "a.txt");
    const r = cpilot(["check", "--staged"], { cwd: root, env: { CI: "" } });
    expect(r.code, r.stderr).toBe(1);
    expect(readFileSync(seen, "utf8")).toBe("bad\n");
    expect(r.stderr).not.toContain("Cannot tell");
    expect(readFileSync(join(root, "a.txt"), "utf8")).toBe("good, in the working copy only\n");
    expect(git(root, "ls-files", "-v", "a.txt")).toBe(tag);
    expect(git(root, "show", ":a.txt")).toBe("bad\n");
  });

  test("a fix is staged and the bit stays set; the working copy's own change is merged on top", () => {
    const root = repo([
      { name: "fix", pattern: "a.txt", timeout: 30, fixes: true, run: "sed -i s/bad/good/ a.txt" },
      NO_BAD,
    ]);
    const staged = "bad\n2\n3\n4\n5\n";
    writeFiles(root, { "a.txt": staged });
    git(root, "add", "a.txt");
    writeFiles(root, { "a.txt": `${staged}my working copy's line\n` });
    git(root, "update-index", `--${bit}`, "a.txt");
    const r = cpilot(["check", "--staged"], { cwd: root, env: { CI: "" } });
    expect(r.code, r.stderr).toBe(0);
    expect(git(root, "show", ":a.txt")).toBe("good\n2\n3\n4\n5\n");
    expect(readFileSync(join(root, "a.txt"), "utf8")).toBe(
      "good\n2\n3\n4\n5\nmy working copy's line\n",
    );
    expect(git(root, "ls-files", "-v", "a.txt")).toBe(tag);
  });
});

test("skip-worktree with no working copy (a sparse checkout): the staged blob is checked, and the file is gone again after", () => {
  const seen = join(tempDir("cpilot-seen-"), "a.txt");
  const root = repo([noBadSeen(seen)]);
  writeFiles(root, { "a.txt": "bad\n" });
  git(root, "add", "a.txt");
  git(root, "update-index", "--skip-worktree", "a.txt");
  rmSync(join(root, "a.txt"));
  const r = cpilot(["check", "--staged"], { cwd: root, env: { CI: "" } });
  expect(r.code, r.stderr).toBe(1);
  expect(readFileSync(seen, "utf8")).toBe("bad\n");
  expect(r.stderr).not.toContain("Cannot tell");
  expect(existsSync(join(root, "a.txt"))).toBe(false);
  expect(git(root, "ls-files", "-v", "a.txt")).toBe("S a.txt\n");
  expect(git(root, "status", "--porcelain")).toBe("M  a.txt\n");
});

test("a file with a bit whose working copy is the staged content: nothing is set aside", () => {
  const root = repo([NO_BAD]);
  writeFiles(root, { "a.txt": "fine\n" });
  git(root, "add", "a.txt");
  git(root, "update-index", "--assume-unchanged", "a.txt");
  const r = cpilot(["check", "--staged"], { cwd: root, env: { CI: "" } });
  expect(r.code, r.stderr).toBe(0);
  expect(r.stderr).not.toContain("set aside");
});

test("a split index (the bits in a shared file cpilot does not read): git is asked, the staged blob is checked", () => {
  const seen = join(tempDir("cpilot-seen-"), "a.txt");
  const root = repo([noBadSeen(seen)]);
  git(root, "update-index", "--split-index");
  writeFiles(root, { "a.txt": "bad\n" });
  git(root, "add", "a.txt");
  writeFiles(root, { "a.txt": "good, in the working copy only\n" });
  git(root, "update-index", "--assume-unchanged", "a.txt");
  const r = cpilot(["check", "--staged"], { cwd: root, env: { CI: "" } });
  expect(r.code, r.stderr).toBe(1);
  expect(readFileSync(seen, "utf8")).toBe("bad\n");
  expect(readFileSync(join(root, "a.txt"), "utf8")).toBe("good, in the working copy only\n");
  expect(git(root, "ls-files", "-v", "a.txt")).toBe("h a.txt\n");
});

test("in a SHA-256 repository, a staged file with skip-worktree set: the staged blob is checked", () => {
  const seen = join(tempDir("cpilot-seen-"), "a.txt");
  const root = tempDir("cpilot-attack-bits-");
  git(root, "init", "-q", "--object-format=sha256");
  git(root, "config", "user.email", "t@example.invalid");
  git(root, "config", "user.name", "t");
  writeFiles(root, {
    "callbacks.config.json": JSON.stringify({ callbacks: [noBadSeen(seen)] }),
    ".gitignore": ".cpilot/\n",
    "a.txt": "a\n",
  });
  git(root, "add", "-A");
  git(root, "commit", "-qm", "init");
  writeFiles(root, { "a.txt": "bad\n" });
  git(root, "add", "a.txt");
  writeFiles(root, { "a.txt": "good, in the working copy only\n" });
  git(root, "update-index", "--skip-worktree", "a.txt");
  const r = cpilot(["check", "--staged"], { cwd: root, env: { CI: "" } });
  expect(r.code, r.stderr).toBe(1);
  expect(readFileSync(seen, "utf8")).toBe("bad\n");
  expect(readFileSync(join(root, "a.txt"), "utf8")).toBe("good, in the working copy only\n");
  expect(git(root, "ls-files", "-v", "a.txt")).toBe("S a.txt\n");
});
