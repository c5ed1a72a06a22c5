/**
 * The git processes one agent hook call starts, counted through a `git` on PATH that logs
 * and hands over to the real one: each costs the agent's edit loop a process (the
 * content keys of a whole-project check once asked git for the same things twice, and
 * listed every file's blob id on every edit). Counted, not timed.
 */
import { expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cpilot } from "../helpers/binary.ts";
import { tempDir, writeFiles } from "../helpers/tmp.ts";

const REAL_GIT = execFileSync("sh", ["-c", "command -v git"], { encoding: "utf8" }).trim();

function project(): { root: string; log: string; path: string } {
  const base = tempDir("cpilot-gitcalls-");
  const root = join(base, "repo");
  const bin = join(base, "bin");
  const log = join(base, "git.log");
  writeFiles(bin, {
    git: `#!/bin/sh\necho "$*" >> '${log}'\nexec '${REAL_GIT}' "$@"\n`,
  });
  chmodSync(join(bin, "git"), 0o755);
  writeFiles(root, {
    ".gitignore": ".cpilot/\n",
    // no file placeholder: a whole-project check, keyed by the project's content
    "callbacks.config.json": JSON.stringify({
      callbacks: [{ name: "t", pattern: "*.ts", run: ["true"], timeout: 30, per: "file" }],
    }),
    "a.ts": "export const a = 1;\n",
    "b.ts": "export const b = 1;\n",
  });
  const git = (...args: string[]) => execFileSync("git", args, { cwd: root, stdio: "pipe" });
  git("init", "-q", "-b", "main");
  git("add", "-A");
  git("-c", "user.email=t@example.invalid", "-c", "user.name=t", "commit", "-qm", "init");
  return { root, log, path: `${bin}:/usr/local/bin:/usr/bin:/bin` };
}

function edit(root: string, content: string, path: string, log: string): string[] {
  writeFileSync(join(root, "a.ts"), content);
  rmSync(log, { force: true });
  const payload = JSON.stringify({
    session_id: "s",
    transcript_path: join(root, "t.jsonl"),
    cwd: root,
    hook_event_name: "PostToolUse",
    tool_name: "Write",
    tool_input: { file_path: join(root, "a.ts"), content },
    tool_response: { type: "update", filePath: join(root, "a.ts") },
    tool_use_id: "toolu_1",
  });
  const r = cpilot(["hook", "claude"], { cwd: root, env: { PATH: path }, input: payload });
  expect(r.code).toBe(0);
  return existsSync(log) ? readFileSync(log, "utf8").trim().split("\n") : [];
}

test("an agent's edit asks git for HEAD and the changed files once, and lists every file only while HEAD is unrecorded", () => {
  const { root, log, path } = project();
  const first = edit(root, "export const a = 2;\n", path, log);
  expect(first.filter((c) => c.startsWith("status"))).toHaveLength(2); // before and after the run
  expect(first.filter((c) => c.startsWith("rev-parse"))).toHaveLength(1);

  // the project as in HEAD recorded: an edit needs no listing of every file, nor HEAD's tree again
  writeFileSync(join(root, "a.ts"), "export const a = 1;\n");
  expect(cpilot(["check", "--all"], { cwd: root, env: { PATH: path } }).code).toBe(0);
  const later = edit(root, "export const a = 3;\n", path, log);
  expect(later.filter((c) => c.startsWith("status"))).toHaveLength(2);
  expect(later.filter((c) => c.startsWith("rev-parse") || c.startsWith("ls-files -s"))).toEqual([]);
});
