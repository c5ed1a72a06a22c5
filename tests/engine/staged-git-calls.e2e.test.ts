/**
 * The git processes `check --staged` starts, counted through a `git` on PATH that logs and
 * hands over to the real one. Replaying a commit's checks from the result cache once cost
 * two more `git status` for their keys, though the survey had just read the same. Counted,
 * not timed.
 */
import { expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { appendFileSync, chmodSync, existsSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { cpilot } from "../helpers/binary.ts";
import { tempDir, writeFiles } from "../helpers/tmp.ts";

const REAL_GIT = execFileSync("sh", ["-c", "command -v git"], { encoding: "utf8" }).trim();

function project(objectFormat = "sha1"): {
  root: string;
  log: string;
  path: string;
  git: (...a: string[]) => void;
} {
  const base = tempDir("cpilot-staged-gitcalls-");
  const root = join(base, "repo");
  const bin = join(base, "bin");
  const log = join(base, "git.log");
  writeFiles(bin, { git: `#!/bin/sh\necho "$*" >> '${log}'\nexec '${REAL_GIT}' "$@"\n` });
  chmodSync(join(bin, "git"), 0o755);
  writeFiles(root, {
    ".gitignore": ".cpilot/\n",
    "callbacks.config.json": JSON.stringify({
      callbacks: [
        // no file placeholder: keyed by the whole project's content
        { name: "whole", pattern: "*.ts", run: ["true"], timeout: 30 },
        { name: "each", pattern: "*.ts", run: '! grep -n BAD "$@"', timeout: 30 },
      ],
    }),
    "a.ts": "export const a = 1;\n",
    "b.ts": "export const b = 1;\n",
  });
  const git = (...args: string[]) => {
    execFileSync("git", args, { cwd: root, stdio: "pipe" });
  };
  git("init", "-q", "-b", "main", `--object-format=${objectFormat}`);
  git("add", "-A");
  git("-c", "user.email=t@example.invalid", "-c", "user.name=t", "commit", "-qm", "init");
  return { root, log, path: `${bin}:/usr/local/bin:/usr/bin:/bin`, git };
}

/** The `git status` the cache keys ask when they cannot take the survey's word. */
const KEYS_STATUS =
  "status --porcelain=v2 --branch -z --untracked-files=all --no-renames --ignore-submodules=none";

function checkStaged(root: string, path: string, log: string): { calls: string[]; out: string } {
  rmSync(log, { force: true });
  const r = cpilot(["check", "--staged"], { cwd: root, env: { PATH: path } });
  expect(r.code).toBe(0);
  const calls = existsSync(log) ? readFileSync(log, "utf8").trim().split("\n") : [];
  return { calls, out: r.stderr };
}

/** What the index stages against HEAD's commit: all a check whose every result is replayed asks. */
const INDEX_LOOK =
  /^diff-index --cached -z --no-renames --ignore-submodules=all --ita-invisible-in-index [0-9a-f]{40,64}$/;

test("check --staged replaying its checks asks git once, about the index alone: its answer keys them", () => {
  const { root, log, path, git } = project();
  appendFileSync(join(root, "a.ts"), "export const more = 2;\n");
  git("add", "a.ts");
  const first = checkStaged(root, path, log);
  expect(first.out).not.toContain("from cache");
  const again = checkStaged(root, path, log);
  expect(again.out.match(/from cache/g)).toHaveLength(2);
  expect(again.calls).not.toContain(KEYS_STATUS);
  expect(again.calls).toHaveLength(1);
  expect(again.calls[0]).toMatch(INDEX_LOOK);
}, 60_000);

test("unstaged work beside a replay is not looked at; what the index cannot vouch for is asked again: a staged symlink", () => {
  const { root, log, path, git } = project();
  appendFileSync(join(root, "a.ts"), "export const more = 2;\n");
  git("add", "a.ts");
  checkStaged(root, path, log);
  // nothing runs, so nothing is set aside: git never passes over the tree
  appendFileSync(join(root, "b.ts"), "export const unstaged = 3;\n");
  const aside = checkStaged(root, path, log);
  expect(aside.out.match(/from cache/g)).toHaveLength(2);
  expect(aside.out).not.toContain("set aside");
  expect(aside.calls).toHaveLength(1);
  expect(aside.calls[0]).toMatch(INDEX_LOOK);
  expect(readFileSync(join(root, "b.ts"), "utf8")).toContain("unstaged = 3");
  git("checkout", "b.ts");
  // a link's blob is its target's name, not what a checker reads through it
  symlinkSync("a.ts", join(root, "link.ts"));
  git("add", "link.ts");
  checkStaged(root, path, log);
  const linked = checkStaged(root, path, log);
  expect(linked.out.match(/from cache/g)).toHaveLength(2);
  expect(linked.calls).toContain(KEYS_STATUS);
}, 60_000);

test.each(["sha1", "sha256"])(
  "a %s repository: the index bits are read from the index file, not asked of git",
  (format) => {
    const { root, log, path, git } = project(format);
    appendFileSync(join(root, "a.ts"), "export const more = 2;\n");
    git("add", "a.ts");
    const first = checkStaged(root, path, log);
    expect(first.calls.filter((c) => c.startsWith("ls-files -v"))).toEqual([]);
    // the index first (no record yet: a run is needed), then the tree, to set work aside
    expect(first.calls[0]).toMatch(INDEX_LOOK);
    expect(first.calls.some((c) => c.startsWith("status --porcelain=v2"))).toBe(true);
    // the staged file is read as git names it (its blob id): not taken for changed, so git
    // is not asked to compare it with the index
    expect(first.calls.filter((c) => c.startsWith("diff-files"))).toEqual([]);
  },
  60_000,
);
