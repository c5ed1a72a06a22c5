/** cpilot's state folder, made through the binary in a real repository. */
import { expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stateDir } from "../../src/util/state-dir.ts";
import { cpilot } from "../agents/claude/_helpers.ts";
import { tempDir } from "../helpers/tmp.ts";

const status = (root: string) =>
  execFileSync("git", ["status", "--porcelain", "--untracked-files=all"], {
    cwd: root,
    encoding: "utf8",
  });

/** A committed repository with one passing callback on *.txt and no state folder yet. */
function project(prefix: string): string {
  const root = tempDir(prefix, { git: true });
  writeFileSync(
    join(root, "callbacks.config.json"),
    JSON.stringify({ callbacks: [{ name: "ok", pattern: "*.txt", run: "true", timeout: 30 }] }),
  );
  writeFileSync(join(root, "a.txt"), "a\n");
  execFileSync("git", ["add", "-A"], { cwd: root });
  execFileSync("git", ["commit", "-qm", "a"], { cwd: root });
  return root;
}

test("the state folder a check makes stays out of git status, without cpilot init", () => {
  const root = project("cpilot-state-");
  expect(cpilot(["check", "--all"], { cwd: root }).code).toBe(0);
  expect(existsSync(join(root, ".cpilot", "runs"))).toBe(true);
  expect(status(root)).toBe("");
});

test("an existing .gitignore in the state folder is left as it is", () => {
  const root = tempDir("cpilot-state-own-", { git: true });
  mkdirSync(join(root, ".cpilot"));
  writeFileSync(join(root, ".cpilot", ".gitignore"), "runs/\n");
  stateDir(root, "runs");
  expect(readFileSync(join(root, ".cpilot", ".gitignore"), "utf8")).toBe("runs/\n");
});

test("a state folder an older cpilot made without a .gitignore gets one with its next folder", () => {
  const root = project("cpilot-state-old-");
  mkdirSync(join(root, ".cpilot", "runs"), { recursive: true });
  writeFileSync(join(root, ".cpilot", "runs", "old.log"), "a run of cpilot 0.1.0\n");
  expect(status(root)).toBe("?? .cpilot/runs/old.log\n");
  expect(cpilot(["check", "--all"], { cwd: root }).code).toBe(0);
  expect(status(root)).toBe("");
});
