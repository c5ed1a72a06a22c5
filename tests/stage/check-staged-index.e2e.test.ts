/**
 * `check --staged` reads the index first and passes over the tree only when a run is
 * needed: a commit whose every check is replayed sets nothing aside. What is staged by
 * someone else while it reads is still caught, through a `git` first on PATH that stages a
 * file at a chosen call (no timing).
 */
import { expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cpilot } from "../helpers/binary.ts";
import { committedRepo, tempDir, writeFiles } from "../helpers/tmp.ts";
import { treeState } from "../helpers/tree-state.ts";

const REAL_GIT = execFileSync("sh", ["-c", "command -v git"], { encoding: "utf8" }).trim();

const git = (root: string, ...args: string[]): string =>
  execFileSync("git", args, { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

function repo(callbacks: unknown[]): string {
  return committedRepo("cpilot-staged-index-", {
    "callbacks.config.json": JSON.stringify({ callbacks }),
    ".gitignore": ".cpilot/\n",
    "a.txt": "one\ntwo\nthree\n",
    "b.txt": "bee\n",
  });
}

/**
 * A `git` that logs each call and, once (while `trigger` exists), runs `git add b.txt` just
 * before (`when` "before") or just after (`when` "after") the first call of `command`.
 */
function gitThatStages(command: string, when: "before" | "after") {
  const bin = tempDir("cpilot-git-stages-");
  const log = join(bin, "calls");
  const trigger = join(bin, "trigger");
  const stage = `if [ "$1" = "${command}" ] && [ -e "${trigger}" ]; then rm -f "${trigger}"; "${REAL_GIT}" add b.txt; fi`;
  const script =
    when === "before"
      ? `#!/bin/sh\necho "$1" >> "${log}"\n${stage}\nexec "${REAL_GIT}" "$@"\n`
      : `#!/bin/sh\necho "$1" >> "${log}"\n"${REAL_GIT}" "$@"\ncode=$?\n${stage}\nexit $code\n`;
  writeFiles(bin, { git: script });
  chmodSync(join(bin, "git"), 0o755);
  return {
    env: { PATH: `${bin}:/usr/local/bin:/usr/bin:/bin` },
    arm: () => {
      writeFileSync(trigger, "");
      rmSync(log, { force: true });
    },
    calls: () => (existsSync(log) ? readFileSync(log, "utf8").trim().split("\n") : []),
  };
}

test("a replayed commit beside unstaged and untracked work: nothing set aside, the tree untouched, git asked about the index alone", () => {
  const root = repo([{ name: "ok", pattern: "*.txt", run: ["true"], timeout: 30 }]);
  writeFiles(root, { "a.txt": "one\ntwo STAGED\nthree\n" });
  git(root, "add", "a.txt");
  writeFiles(root, { "a.txt": "one\ntwo STAGED\nthree UNSTAGED\n", "new.txt": "untracked\n" });
  const first = cpilot(["check", "--staged"], { cwd: root });
  expect(first.code).toBe(0);
  expect(first.stderr).toContain("set aside meanwhile, now back");
  const logged = gitThatStages("none", "before");
  logged.arm();
  const before = treeState(root);
  const again = cpilot(["check", "--staged"], { cwd: root, env: logged.env });
  expect(again.code).toBe(0);
  expect(again.stderr).toContain("from cache");
  expect(again.stderr).not.toContain("set aside");
  expect(treeState(root)).toEqual(before);
  expect(logged.calls()).toEqual(["diff-index"]);
});

test("a file staged between the index's look and the tree's survey: the check fails before anything is set aside, and nothing is lost", () => {
  // never replayed: a run is needed, so the tree is surveyed after the index was read
  const root = repo([{ name: "ok", pattern: "*.txt", run: ["true"], timeout: 30, cache: false }]);
  writeFiles(root, { "a.txt": "one\ntwo STAGED\nthree\n" });
  git(root, "add", "a.txt");
  writeFiles(root, { "a.txt": "one\ntwo STAGED\nthree UNSTAGED\n", "b.txt": "bee BAD\n" });
  const stager = gitThatStages("status", "before");
  stager.arm();
  // the files (the index changes: b.txt is staged meanwhile)
  const files = () =>
    Object.fromEntries(Object.entries(treeState(root)).filter(([k]) => !k.startsWith("(")));
  const before = files();
  const r = cpilot(["check", "--staged"], { cwd: root, env: stager.env });
  expect(r.code).not.toBe(0);
  expect(r.stderr).toContain('"b.txt" changed in the index while cpilot read it');
  expect(files()).toEqual(before);
  expect(stager.calls().slice(0, 2)).toEqual(["diff-index", "status"]);
  expect(git(root, "diff", "--cached", "--name-only").split("\n").filter(Boolean)).toEqual([
    "a.txt",
    "b.txt",
  ]);
});

test("a file staged just as the index is read: the tree is surveyed and what is staged then is checked", () => {
  const root = repo([{ name: "nobad", pattern: "*.txt", run: '! grep -n BAD "$@"', timeout: 30 }]);
  writeFiles(root, { "a.txt": "one\ntwo STAGED\nthree\n" });
  git(root, "add", "a.txt");
  expect(cpilot(["check", "--staged"], { cwd: root }).code).toBe(0);
  writeFiles(root, { "b.txt": "bee BAD\n" });
  const stager = gitThatStages("diff-index", "after");
  stager.arm();
  const r = cpilot(["check", "--staged"], { cwd: root, env: stager.env });
  expect(r.stderr).toContain("b.txt");
  expect(r.stderr).toContain("BAD");
  expect(r.code).toBe(1);
  expect(stager.calls().slice(0, 2)).toEqual(["diff-index", "status"]);
});

test("a file staged while a replayed commit is checked: the commit fails, as when the runs ran", () => {
  // keyed by the whole project: HEAD's tree is asked of git (once its kept id is gone)
  const root = repo([{ name: "ok", pattern: "*.txt", run: ["true"], timeout: 30 }]);
  writeFiles(root, { "a.txt": "one\ntwo STAGED\nthree\n" });
  git(root, "add", "a.txt");
  expect(cpilot(["check", "--staged"], { cwd: root }).code).toBe(0);
  rmSync(join(root, ".git", "cpilot", "cache", "trees"), { recursive: true, force: true });
  writeFiles(root, { "b.txt": "bee BAD\n" });
  const stager = gitThatStages("rev-parse", "after");
  stager.arm();
  const r = cpilot(["check", "--staged"], { cwd: root, env: stager.env });
  expect(r.stderr).toContain("from cache");
  expect(r.code).toBe(1);
  expect(r.stderr).toContain("b.txt was staged while the check ran");
});

test("a replay is keyed by the staged content, not the tree's: a pass recorded for an unstaged fix does not pass the commit", () => {
  const root = repo([{ name: "nobad", pattern: "*.txt", run: '! grep -n BAD "$@"', timeout: 30 }]);
  writeFiles(root, { "a.txt": "one\nBAD\nthree\n" });
  git(root, "add", "a.txt");
  // fixed in the tree, not staged; its check passes and is recorded
  writeFiles(root, { "a.txt": "one\ngood\nthree\n" });
  const tree = cpilot(["check", "a.txt"], { cwd: root });
  expect(tree.code).toBe(0);
  const staged = cpilot(["check", "--staged"], { cwd: root });
  expect(staged.stderr).not.toContain("from cache");
  expect(staged.stderr).toContain("BAD");
  expect(staged.code).toBe(1);
  expect(readFileSync(join(root, "a.txt"), "utf8")).toBe("one\ngood\nthree\n");
});

test("a staged file left out for an untracked marker beside it is checked once that marker is set aside", () => {
  const root = repo([{ name: "nobad", pattern: "*.txt", run: '! grep -n BAD "$@"', timeout: 30 }]);
  writeFiles(root, { "sub/x.txt": "BAD\n" });
  git(root, "add", "sub/x.txt");
  // untracked, so not in the commit: the folder is the project's own code there
  writeFiles(root, { "sub/pyvenv.cfg": "home = /usr\n" });
  const r = cpilot(["check", "--staged"], { cwd: root });
  expect(r.stderr).toContain("BAD");
  expect(r.code).toBe(1);
  expect(readFileSync(join(root, "sub/pyvenv.cfg"), "utf8")).toBe("home = /usr\n");
});

test("a replayed commit takes no stage folder: with none to be had, it still passes", () => {
  const root = repo([{ name: "ok", pattern: "*.txt", run: ["true"], timeout: 30 }]);
  writeFiles(root, { "a.txt": "one\ntwo STAGED\nthree\n" });
  git(root, "add", "a.txt");
  expect(cpilot(["check", "--staged"], { cwd: root }).code).toBe(0);
  // where the stage folder would be made, a file: a claim could only fail
  rmSync(join(root, ".git", "cpilot", "stage.spare"), { recursive: true, force: true });
  writeFiles(root, { ".git/cpilot/stage": "not a folder\n" });
  const r = cpilot(["check", "--staged"], { cwd: root });
  expect(r.stderr).toContain("from cache");
  expect(r.code).toBe(0);
});

test("a staged file made executable: a pass recorded for it plain is not replayed from the index", () => {
  const root = repo([
    {
      name: "modes",
      pattern: "*.txt",
      run: 'for f in "$@"; do if [ -x "$f" ]; then echo "$f: executable"; exit 1; fi; done',
      timeout: 30,
    },
  ]);
  writeFiles(root, { "a.txt": "one\ntwo STAGED\nthree\n" });
  git(root, "add", "a.txt");
  expect(cpilot(["check", "--staged"], { cwd: root }).code).toBe(0);
  const again = cpilot(["check", "--staged"], { cwd: root });
  expect(again.code).toBe(0);
  expect(again.stderr).toContain("from cache");
  // the same content staged with another mode
  chmodSync(join(root, "a.txt"), 0o755);
  git(root, "add", "a.txt");
  const r = cpilot(["check", "--staged"], { cwd: root });
  expect(r.code).toBe(1);
  expect(r.stderr).toContain("a.txt: executable");
}, 60_000);
