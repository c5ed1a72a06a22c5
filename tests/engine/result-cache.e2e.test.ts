/**
 * The result cache through the compiled binary: a check whose definition and input content
 * are unchanged is not run again (its process never starts), its result replayed and marked;
 * changed content, `cache: false`, and fixers that rewrote a file always run.
 */
import { expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { contextOf, postBatch } from "../agents/claude/_helpers.ts";
import { cpilot } from "../helpers/binary.ts";
import { committedRepo, tempDir, writeFiles } from "../helpers/tmp.ts";

/** A callback that counts its runs in a file outside the project. */
function counted(name: string, run: string, extra: Record<string, unknown> = {}) {
  const counter = join(tempDir("cpilot-count-"), "runs");
  return {
    counter,
    def: { name, pattern: "*.txt", timeout: 30, run: `echo x >> ${counter}; ${run}`, ...extra },
  };
}

function runs(counter: string): number {
  return existsSync(counter) ? readFileSync(counter, "utf8").split("\n").length - 1 : 0;
}

function project(callbacks: unknown[], files: Record<string, string> = { "a.txt": "fine\n" }) {
  return committedRepo("cpilot-cache-", {
    ".gitignore": ".cpilot/\n",
    "callbacks.config.json": JSON.stringify({ callbacks }),
    ...files,
  });
}

const FAILS_ON_BAD = '! grep -n BAD "$@"';
const WHOLE = "! grep -rn BAD --include=*.txt .";

test("check --all again on unchanged content replays every result, marked, and runs nothing", () => {
  const perFile = counted("per-file", FAILS_ON_BAD);
  const whole = counted("whole", WHOLE);
  const root = project([perFile.def, whole.def]);
  expect(cpilot(["check", "--all"], { cwd: root }).code).toBe(0);
  const again = cpilot(["check", "--all", "--json"], { cwd: root });
  expect(again.code).toBe(0);
  const json = JSON.parse(again.stdout) as { runs: { fromCache?: boolean }[] };
  expect(json.runs.map((r) => r.fromCache)).toEqual([true, true]);
  expect([runs(perFile.counter), runs(whole.counter)]).toEqual([1, 1]);
  expect(cpilot(["check", "--all"], { cwd: root }).stderr).toContain("from cache");
  const sarif = JSON.parse(cpilot(["check", "--all", "--format", "sarif"], { cwd: root }).stdout);
  expect(sarif.runs[0].invocations[0].properties.fromCache).toBe(true);
}, 60_000);

test("a failure is replayed as a failure, with its diagnostics; changed content runs again", () => {
  const perFile = counted("per-file", FAILS_ON_BAD);
  const root = project([perFile.def], { "a.txt": "BAD\n" });
  const first = cpilot(["check", "--all"], { cwd: root });
  const second = cpilot(["check", "--all"], { cwd: root });
  expect([first.code, second.code]).toEqual([1, 1]);
  expect(second.stderr).toContain("from cache");
  expect(second.stderr).toContain("1:BAD");
  expect(runs(perFile.counter)).toBe(1);
  writeFileSync(join(root, "a.txt"), "fine now\n");
  expect(cpilot(["check", "--all"], { cwd: root }).code).toBe(0);
  expect(runs(perFile.counter)).toBe(2);
  // The whole project's content is a whole-project check's input: another file counts.
  const whole = counted("whole", WHOLE);
  writeFileSync(join(root, "callbacks.config.json"), JSON.stringify({ callbacks: [whole.def] }));
  cpilot(["check", "--all"], { cwd: root });
  writeFileSync(join(root, "b.txt"), "BAD elsewhere\n");
  expect(cpilot(["check", "a.txt"], { cwd: root }).code).toBe(1);
  expect(runs(whole.counter)).toBe(2);
}, 60_000);

test("check --all leaves an untracked file out, yet a new untracked file changes its keys", () => {
  // the check reads a file beside the files it is given, as a linter reads its config
  const perFile = counted("per-file", `${FAILS_ON_BAD} && ! test -e stop.cfg`);
  const root = project([perFile.def]);
  const check = () => cpilot(["check", "--all", "--json"], { cwd: root });
  const given = (r: { stdout: string }) =>
    (JSON.parse(r.stdout) as { runs: { files: string[] }[] }).runs.flatMap((x) => x.files);
  expect(check().code).toBe(0);
  // a new file not yet added is not one of --all's files: not given, so its BAD fails nothing
  writeFileSync(join(root, "scratch.txt"), "BAD\n");
  const withScratch = check();
  expect(withScratch.code).toBe(0);
  expect(given(withScratch)).toEqual(["a.txt"]);
  // a new untracked file the check may read: the old pass is not replayed, the check runs
  writeFileSync(join(root, "stop.cfg"), "\n");
  const stopped = check();
  expect(stopped.code).toBe(1);
  expect(runs(perFile.counter)).toBe(2);
}, 60_000);

test("cache: false always runs", () => {
  const perFile = counted("live", FAILS_ON_BAD, { cache: false });
  const root = project([perFile.def]);
  cpilot(["check", "--all"], { cwd: root });
  cpilot(["check", "--all"], { cwd: root });
  expect(runs(perFile.counter)).toBe(2);
}, 60_000);

test("a whole-project check that read content which changed while it ran is not replayed for the content before", () => {
  // The file is put right while the check runs, before it reads it: the pass is for "fine",
  // not for the BAD the project held when the run's key was made.
  const trigger = join(tempDir("cpilot-trigger-"), "put-right");
  const whole = counted(
    "whole",
    `if [ -f ${trigger} ]; then rm ${trigger}; printf 'fine\\n' > b.txt; fi; ${WHOLE}`,
  );
  const root = project([whole.def], { "a.txt": "fine\n", "b.txt": "fine\n" });
  writeFileSync(join(root, "b.txt"), "BAD\n");
  writeFileSync(trigger, "");
  cpilot(["check", "--all"], { cwd: root });
  expect(readFileSync(join(root, "b.txt"), "utf8")).toBe("fine\n");
  writeFileSync(join(root, "b.txt"), "BAD\n");
  const again = cpilot(["check", "--all"], { cwd: root });
  expect(again.code).toBe(1);
  expect(again.stderr).not.toContain("from cache");
  expect(runs(whole.counter)).toBe(2);
}, 60_000);

test("a fixer that changed nothing is not run again; one that rewrote a file is never replayed", () => {
  const fixer = counted("upper", 'sed -i "s/two/TWO/" "$@"', { fixes: true });
  const root = project([fixer.def], { "a.txt": "one\n", "b.txt": "two\n" });
  cpilot(["check", "a.txt"], { cwd: root });
  cpilot(["check", "a.txt"], { cwd: root });
  expect(runs(fixer.counter)).toBe(1);
  writeFileSync(join(root, "b.txt"), "two\n");
  cpilot(["check", "b.txt"], { cwd: root });
  expect(readFileSync(join(root, "b.txt"), "utf8")).toBe("TWO\n");
  // The same content again: the rewrite must happen again, so the fixer runs.
  writeFileSync(join(root, "b.txt"), "two\n");
  cpilot(["check", "b.txt"], { cwd: root });
  expect(readFileSync(join(root, "b.txt"), "utf8")).toBe("TWO\n");
  expect(runs(fixer.counter)).toBe(3);
}, 60_000);

test("what the agent loop passed is not run again by check --staged of the same content", () => {
  const perFile = counted("per-file", FAILS_ON_BAD);
  const root = project([perFile.def]);
  writeFileSync(join(root, "a.txt"), "fine, edited\n");
  const payload = { session_id: "s1", cwd: root, ...postBatch([join(root, "a.txt")]) };
  const hook = cpilot(["hook", "claude"], {
    cwd: root,
    env: { AI_AGENT: "claude-code_2-1-330_cli" },
    input: JSON.stringify(payload),
  });
  expect(hook.stdout.trim() === "" ? "" : contextOf(JSON.parse(hook.stdout))).not.toContain("✗");
  expect(runs(perFile.counter)).toBe(1);
  Bun.spawnSync(["git", "add", "a.txt"], { cwd: root });
  const staged = cpilot(["check", "--staged"], { cwd: root });
  expect(staged.code).toBe(0);
  expect(staged.stderr).toContain("from cache");
  expect(runs(perFile.counter)).toBe(1);
}, 60_000);

test("cpilot cache shows what is kept and clears it", () => {
  const perFile = counted("per-file", FAILS_ON_BAD);
  const root = project([perFile.def]);
  cpilot(["check", "--all"], { cwd: root });
  const shown = JSON.parse(cpilot(["cache", "--json"], { cwd: root }).stdout);
  expect(shown.count).toBe(1);
  expect(cpilot(["cache", "clear"], { cwd: root }).stdout).toContain("cleared 1 cached result");
  cpilot(["check", "--all"], { cwd: root });
  expect(runs(perFile.counter)).toBe(2);
  const bad = cpilot(["cache", "drop"], { cwd: root });
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain('Cannot run "cpilot cache drop"');
}, 60_000);

test("a nested package's own lockfile and its workspace's are part of its checks' keys", () => {
  // few files: each folder above them is read; many: git's listing answers (no folder read)
  for (const count of [1, 70]) {
    const perFile = counted("per-file", FAILS_ON_BAD);
    const files: Record<string, string> = {
      "packages/package-lock.json": '{"lockfileVersion":3}\n',
      "packages/app/package-lock.json": '{"lockfileVersion":3}\n',
    };
    for (let i = 0; i < count; i++) files[`packages/app/src/f${i}.txt`] = "fine\n";
    const root = project([perFile.def], files);
    const check = () => expect(cpilot(["check", "--all"], { cwd: root }).code).toBe(0);
    check();
    check();
    expect(runs(perFile.counter)).toBe(1);
    writeFileSync(join(root, "packages/app/package-lock.json"), '{"lockfileVersion":3,"a":1}\n');
    check();
    expect(runs(perFile.counter)).toBe(2);
    writeFileSync(join(root, "packages/package-lock.json"), '{"lockfileVersion":3,"b":1}\n');
    check();
    check();
    expect(runs(perFile.counter)).toBe(3);
  }
}, 60_000);

test.each(["sha1", "sha256"])(
  "a %s repository: a second check --staged of the same content replays every run",
  (format) => {
    const perFile = counted("per-file", FAILS_ON_BAD);
    const whole = counted("whole", WHOLE);
    const root = tempDir("cpilot-cache-format-");
    const git = (...args: string[]) => execFileSync("git", args, { cwd: root, stdio: "pipe" });
    git("init", "-q", "-b", "main", `--object-format=${format}`);
    git("config", "user.email", "t@example.invalid");
    git("config", "user.name", "t");
    writeFiles(root, {
      ".gitignore": ".cpilot/\n",
      "callbacks.config.json": JSON.stringify({ callbacks: [perFile.def, whole.def] }),
      "a.txt": "fine\n",
    });
    git("add", "-A");
    git("commit", "-qm", "init");
    writeFileSync(join(root, "a.txt"), "fine again\n");
    git("add", "a.txt");
    expect(cpilot(["check", "--staged"], { cwd: root }).code).toBe(0);
    const again = cpilot(["check", "--staged", "--json"], { cwd: root });
    expect(again.code).toBe(0);
    const json = JSON.parse(again.stdout) as { runs: { fromCache?: boolean }[] };
    expect(json.runs.map((r) => r.fromCache)).toEqual([true, true]);
    expect([runs(perFile.counter), runs(whole.counter)]).toEqual([1, 1]);
  },
  60_000,
);
