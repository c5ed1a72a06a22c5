import { expect, test } from "bun:test";
import { execFileSync, spawnSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { cpilot, cpilotBinary, runtimeEnv } from "../helpers/binary.ts";
import { tempDir, writeFiles } from "../helpers/tmp.ts";

const git = (root: string, ...args: string[]): string =>
  execFileSync("git", args, { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

/** A PATH holding `cpilot` (the built binary) and the system's tools. */
function pathWithCpilot(): string {
  const bin = tempDir("cpilot-path-");
  symlinkSync(cpilotBinary(), join(bin, "cpilot"));
  return `${bin}:/usr/local/bin:/usr/bin:/bin`;
}

function repo(callbacks: unknown[] = []): string {
  const root = tempDir("cpilot-githook-", { git: true });
  writeFiles(root, {
    "callbacks.config.json": JSON.stringify({ callbacks }),
    ".gitignore": ".cpilot/\n",
    "a.txt": "one\n",
  });
  git(root, "add", "-A");
  git(root, "commit", "-qm", "init");
  return root;
}

/** `git commit` as a person runs it, with the hook and a PATH of our choosing. */
function commit(root: string, path: string) {
  return spawnSync("git", ["commit", "-qm", "change"], {
    cwd: root,
    encoding: "utf8",
    env: { PATH: path, HOME: process.env.HOME ?? "/root", ...runtimeEnv() },
  });
}

test("install git writes an executable pre-commit hook, twice is a no-op, and it blocks a failing commit", () => {
  const root = repo([{ name: "no-bad", pattern: "*.txt", timeout: 30, run: '! grep -l BAD "$@"' }]);
  const first = cpilot(["install", "git"], { cwd: root });
  expect(first.code).toBe(0);
  const hook = join(root, ".git", "hooks", "pre-commit");
  const text = readFileSync(hook, "utf8");
  expect(statSync(hook).mode & 0o111).toBe(0o111);
  const again = cpilot(["install", "git"], { cwd: root });
  expect(again.stderr).toContain("nothing changed");
  expect(readFileSync(hook, "utf8")).toBe(text);

  writeFiles(root, { "a.txt": "BAD\n" });
  git(root, "add", "a.txt");
  const path = pathWithCpilot();
  const blocked = commit(root, path);
  expect(blocked.status).not.toBe(0);
  expect(git(root, "log", "--oneline").trim().split("\n")).toHaveLength(1);
  // staged fine, broken only in the working copy: the commit goes through
  writeFiles(root, { "a.txt": "fine\n" });
  git(root, "add", "a.txt");
  writeFiles(root, { "a.txt": "BAD but unstaged\n" });
  expect(commit(root, path).status).toBe(0);
  expect(git(root, "show", "HEAD:a.txt")).toBe("fine\n");
  expect(readFileSync(join(root, "a.txt"), "utf8")).toBe("BAD but unstaged\n");
});

test("a commit of a partially staged file records the fix, the unstaged line stays unstaged", () => {
  const root = repo([
    { name: "upper", pattern: "*.txt", timeout: 30, fixes: true, run: 'sed -i "s/two/TWO/" "$@"' },
  ]);
  cpilot(["install", "git"], { cwd: root });
  writeFiles(root, { "a.txt": "one\ntwo\nthree\nfour\nfive\n" });
  git(root, "add", "a.txt");
  writeFiles(root, { "a.txt": "one\ntwo\nthree\nfour\nfive\nunstaged six\n" });
  expect(commit(root, pathWithCpilot()).status).toBe(0);
  expect(git(root, "show", "HEAD:a.txt")).toBe("one\nTWO\nthree\nfour\nfive\n");
  expect(readFileSync(join(root, "a.txt"), "utf8")).toBe(
    "one\nTWO\nthree\nfour\nfive\nunstaged six\n",
  );
});

test("a commit whose staged change a formatter undoes entirely is refused, not recorded empty", () => {
  // gofmt, rustfmt, prettier: the staged change was only spacing, the fix takes it back
  const root = repo([
    { name: "trim", pattern: "*.txt", timeout: 30, fixes: true, run: 'sed -i "s/ *$//" "$@"' },
  ]);
  cpilot(["install", "git"], { cwd: root });
  writeFiles(root, { "a.txt": "one   \n" });
  git(root, "add", "a.txt");
  const r = commit(root, pathWithCpilot());
  expect(r.status).not.toBe(0);
  expect(r.stderr).toContain(
    "cpilot: Cannot commit: the callbacks' fixes undid every staged change (nothing would be recorded)",
  );
  expect(git(root, "log", "--oneline").trim().split("\n")).toHaveLength(1);
  expect(git(root, "status", "--porcelain")).toBe("");
  // A commit that still records something after the fix goes through as before.
  writeFiles(root, { "a.txt": "one   \n", "b.txt": "bee\n" });
  git(root, "add", "a.txt", "b.txt");
  expect(commit(root, pathWithCpilot()).status).toBe(0);
  expect(git(root, "show", "--name-only", "--format=", "HEAD").trim()).toBe("b.txt");
});

test("core.hooksPath is honoured; an existing hook is chained, runs first, and uninstall puts it back", () => {
  const root = repo([{ name: "ok", pattern: "*.txt", timeout: 30, run: "true" }]);
  git(root, "config", "core.hooksPath", ".githooks");
  mkdirSync(join(root, ".githooks"));
  const mine = '#!/bin/sh\necho "hand-written ran" > .hand-ran\n';
  const hook = join(root, ".githooks", "pre-commit");
  writeFileSync(hook, mine);
  chmodSync(hook, 0o750);
  expect(cpilot(["install", "git"], { cwd: root }).code).toBe(0);
  expect(readFileSync(hook, "utf8")).toContain("cpilot check --staged");
  expect(readFileSync(`${hook}.pre-cpilot`, "utf8")).toBe(mine);
  writeFiles(root, { "a.txt": "two\n" });
  git(root, "add", "a.txt");
  expect(commit(root, pathWithCpilot()).status).toBe(0);
  expect(existsSync(join(root, ".hand-ran"))).toBe(true);

  expect(cpilot(["uninstall", "git"], { cwd: root }).code).toBe(0);
  expect(readFileSync(hook, "utf8")).toBe(mine);
  expect(statSync(hook).mode & 0o777).toBe(0o750);
  expect(existsSync(`${hook}.pre-cpilot`)).toBe(false);
  expect(cpilot(["uninstall", "git"], { cwd: root }).stderr).toContain("nothing changed");
});

test("husky: the check goes into .husky/pre-commit, not husky's shims; uninstall restores the file", () => {
  const root = repo();
  mkdirSync(join(root, ".husky", "_"), { recursive: true });
  git(root, "config", "core.hooksPath", ".husky/_");
  const user = "npm test\n";
  writeFileSync(join(root, ".husky", "pre-commit"), user);
  expect(cpilot(["install", "git"], { cwd: root }).code).toBe(0);
  expect(existsSync(join(root, ".husky", "_", "pre-commit"))).toBe(false);
  const text = readFileSync(join(root, ".husky", "pre-commit"), "utf8");
  expect(text.endsWith(user)).toBe(true); // the check first: see the attack suite
  expect(text).toContain("cpilot check --staged");
  expect(cpilot(["install", "git"], { cwd: root }).stderr).toContain("nothing changed");
  expect(cpilot(["uninstall", "git"], { cwd: root }).code).toBe(0);
  expect(readFileSync(join(root, ".husky", "pre-commit"), "utf8")).toBe(user);
});

test("without cpilot on PATH or in node_modules/.bin the hook stops the commit and says why", () => {
  const root = repo();
  cpilot(["install", "git"], { cwd: root });
  writeFiles(root, { "a.txt": "two\n" });
  git(root, "add", "a.txt");
  const r = commit(root, "/usr/local/bin:/usr/bin:/bin");
  expect(r.status).not.toBe(0);
  expect(r.stderr).toContain("cpilot: Cannot run the pre-commit check: cpilot is not on PATH");
});
