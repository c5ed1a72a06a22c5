/**
 * The records that decide whether an agent's stop is held (the turn's record, the protected
 * files it changed, its failing results, its stop counters) used to live in
 * `.cpilot/sessions/<id>/`, a folder the agent's shell may write even inside a sandbox that
 * keeps `.git/` read-only: deleting them there let the agent stop with a failing file or a
 * protected file still changed. They now live in `<git dir>/cpilot/sessions/`: writing the
 * old place changes nothing, and the gate refuses edit tools and patches into the new one.
 */
import { afterEach, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { type AgentProject, LINT } from "../agents/gemini/_agent-project.ts";
import { afterShell, committedCodexProject, stop, turnStarts } from "./_codex-shell-turn.ts";
import { allowedWrites, attackProject } from "./_gate-attack.ts";

let project: AgentProject | undefined;
afterEach(() => project?.remove());

function committed(): AgentProject {
  project = committedCodexProject({ callbacks: [LINT] }, { "src/a.ts": "export const a = 1;\n" });
  return project;
}

/**
 * What the agent's shell would do to hide its edits in the old place: every record that
 * holds the stop deleted (the failing results, the protected changes), the counters maxed,
 * and the rest of the session folder (the turn's record) left as it is.
 */
function shellForgesOldRecords(p: AgentProject): void {
  const sessions = p.path(".cpilot/sessions");
  mkdirSync(sessions, { recursive: true });
  for (const id of readdirSync(sessions)) {
    const dir = `${sessions}/${id}`;
    rmSync(`${dir}/results`, { recursive: true, force: true });
    rmSync(`${dir}/shell-protected.json`, { force: true });
    if (existsSync(dir)) writeFileSync(`${dir}/count-stop-blocks`, "0");
  }
}

test("a failing result deleted from .cpilot/sessions through the shell: the stop is still held", () => {
  const p = committed();
  turnStarts(p);
  writeFileSync(p.path("src/a.ts"), "export const a = BAD;\n");
  expect(afterShell(p)).toContain("BAD in src/a.ts");
  shellForgesOldRecords(p);
  expect(stop(p)).toContain("BAD in src/a.ts");
  expect(existsSync(p.path(".git/cpilot/sessions"))).toBe(true);
});

test("a protected change's record deleted from .cpilot/sessions through the shell: the stop is still held", () => {
  const p = committed();
  turnStarts(p);
  writeFileSync(p.path(".git/info/exclude"), "src/x.ts\n");
  expect(afterShell(p)).toContain(
    "a protected file was changed through the shell: .git/info/exclude",
  );
  shellForgesOldRecords(p);
  expect(stop(p)).toContain(".git/info/exclude");
});

test("the agents' edit tools and patches cannot write a session record in the git folder", async () => {
  const p = attackProject({ "callbacks.config.json": JSON.stringify({ callbacks: [LINT] }) });
  spawnSync("git", ["init", "-q"], { cwd: p.dir });
  const records = [
    ".git/cpilot/sessions/s1/tree-snapshot.json",
    ".git/cpilot/sessions/s1/shell-protected.json",
    ".git/cpilot/sessions/s1/results/lint.json",
    ".git/cpilot/sessions/s1/count-stop-blocks",
  ];
  expect(await allowedWrites(p, records)).toEqual([]);
}, 120_000);
