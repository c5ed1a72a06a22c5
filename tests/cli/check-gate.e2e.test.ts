import { expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { cpilot } from "../helpers/binary.ts";
import { tempDir, writeFiles } from "../helpers/tmp.ts";

const git = (root: string, ...args: string[]): string =>
  execFileSync("git", args, { cwd: root, encoding: "utf8" });

function repo(config: Record<string, unknown>): string {
  const root = tempDir("cpilot-gate-", { git: true });
  writeFiles(root, {
    "callbacks.config.json": JSON.stringify(config),
    ".gitignore": ".cpilot/\n",
    "a.txt": "three  \n",
    "kept.txt": "committed, then deleted\n",
  });
  git(root, "add", "-A");
  git(root, "commit", "-qm", "init");
  return root;
}

const TRIM = {
  name: "trim",
  pattern: "*.txt",
  fixes: true,
  timeout: 30,
  run: 'sed -i "s/ *$//" "$@"',
};

test("in CI a callback that rewrites a file fails the check and shows the diff", () => {
  const root = repo({ callbacks: [TRIM] });
  const ci = cpilot(["check", "--all"], { cwd: root, env: { CI: "true" } });
  expect(ci.code).toBe(1);
  expect(ci.stderr).toContain("failOnChange: callbacks rewrote 1 file");
  expect(ci.stderr).toContain("-three  ");
  expect(ci.stderr).toContain("+three");
  // The last line is the one people read: it must not say the check passed.
  expect(ci.stderr.trimEnd().split("\n").at(-1)).toMatch(/1 run passed .*, but the check failed/);
});

test("outside CI a rewrite passes; --fail-on-change and failOnChange: always fail it, never lets CI pass", () => {
  const local = repo({ callbacks: [TRIM] });
  expect(cpilot(["check", "--all"], { cwd: local, env: { CI: "" } }).code).toBe(0);
  const flagged = repo({ callbacks: [TRIM] });
  expect(cpilot(["check", "--all", "--fail-on-change"], { cwd: flagged }).code).toBe(1);
  const always = repo({ callbacks: [TRIM], failOnChange: "always" });
  expect(cpilot(["check", "--all"], { cwd: always }).code).toBe(1);
  const never = repo({ callbacks: [TRIM], failOnChange: "never" });
  expect(cpilot(["check", "--all"], { cwd: never, env: { CI: "1" } }).code).toBe(0);
  expect(readFileSync(join(never, "a.txt"), "utf8")).toBe("three\n");
});

test("a path that does not exist is a usage error; a deleted file git knows is checked", () => {
  const root = repo({ callbacks: [{ name: "ok", pattern: "*.txt", run: "true", timeout: 30 }] });
  const missing = cpilot(["check", "missing.txt"], { cwd: root });
  expect(missing.code).toBe(2);
  expect(missing.stderr).toContain('Cannot check "missing.txt": no such file or directory');
  rmSync(join(root, "kept.txt"));
  expect(cpilot(["check", "kept.txt"], { cwd: root }).code).toBe(0);
});

test("an unknown ref for --changed is named, exit 2", () => {
  const root = repo({ callbacks: [{ name: "ok", pattern: "*.txt", run: "true", timeout: 30 }] });
  const r = cpilot(["check", "--changed", "no-such-branch"], { cwd: root });
  expect(r.code).toBe(2);
  expect(r.stderr).toContain(
    'Cannot compare with "no-such-branch": git knows no branch, tag or commit',
  );
  expect(cpilot(["check", "--changed", "HEAD"], { cwd: root }).code).toBe(0);
});
