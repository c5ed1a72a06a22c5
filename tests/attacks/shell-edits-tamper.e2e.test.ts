/**
 * Shell edits seen as a stranger would hide them: `cpilot hook codex` payloads (the turn's
 * start, a shell call's result, the stop) around commands run in a real git repository by
 * the test itself, as the agent's shell would have run them.
 */
import { afterEach, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type AgentProject, GATE, LINT } from "../agents/gemini/_agent-project.ts";
import {
  afterShell,
  committedCodexProject,
  git,
  privateRecords,
  stop,
  turnStarts,
} from "./_codex-shell-turn.ts";

let project: AgentProject | undefined;
afterEach(() => project?.remove());

function committed(files: Record<string, string> = {}, gate?: unknown): AgentProject {
  project = committedCodexProject(
    { callbacks: [LINT], ...(gate === undefined ? {} : { gate }) },
    { "src/a.ts": "export const a = 1;\n", ...files },
  );
  return project;
}

test("a file committed through the shell (git commit --no-verify) is still the agent's edit", () => {
  const p = committed();
  turnStarts(p);
  writeFileSync(p.path("src/a.ts"), "export const a = BAD;\n");
  git(p, "commit", "-qam", "sneak", "--no-verify");
  const told = afterShell(p);
  expect(told).toContain("BAD in src/a.ts");
  expect(stop(p)).toContain("BAD in src/a.ts");
});

test("a file hidden from git status (assume-unchanged, skip-worktree) is still seen", () => {
  const p = committed({ "src/b.ts": "export const b = 1;\n" });
  turnStarts(p);
  git(p, "update-index", "--assume-unchanged", "src/a.ts");
  git(p, "update-index", "--skip-worktree", "src/b.ts");
  writeFileSync(p.path("src/a.ts"), "export const a = BAD;\n");
  writeFileSync(p.path("src/b.ts"), "export const b = BAD;\n");
  const told = afterShell(p);
  expect(told).toContain("BAD in src/a.ts");
  expect(told).toContain("src/b.ts");
});

test("the record of the turn deleted or garbled (a shell that may write cpilot's private folder): every changed file is checked, and said", () => {
  const p = committed();
  turnStarts(p);
  writeFileSync(p.path("src/a.ts"), "export const a = BAD;\n");
  rmSync(privateRecords(p), { recursive: true, force: true });
  const told = afterShell(p);
  expect(told).toContain("BAD in src/a.ts");
  expect(told).toContain("cannot tell");
  // garbled rather than deleted
  turnStarts(p);
  writeFileSync(p.path("src/c.ts"), "export const c = BAD;\n");
  writeFileSync(join(privateRecords(p), "tree-snapshot.json"), "{garbled");
  const again = afterShell(p);
  expect(again).toContain("changed by other hands");
  expect(again).toContain("'lint' failed on src/a.ts and src/c.ts");
});

test("a file written then put back in the same call is nothing", () => {
  const p = committed();
  turnStarts(p);
  writeFileSync(p.path("src/a.ts"), "export const a = BAD;\n");
  writeFileSync(p.path("src/a.ts"), "export const a = 1;\n");
  expect(afterShell(p)).not.toContain("src/a.ts");
});

test("git told to trust stat data it should not (core.trustctime, core.checkStat): a same-size write with its old time restored is seen", () => {
  const p = committed({ "src/a.ts": "export const a = 111;\n" });
  turnStarts(p);
  git(p, "config", "core.trustctime", "false");
  git(p, "config", "core.checkStat", "minimal");
  writeFileSync(p.path("stamp"), "");
  spawnSync("touch", ["-r", "src/a.ts", "stamp"], { cwd: p.dir });
  writeFileSync(p.path("src/a.ts"), "export const a = BAD;\n"); // same size as before
  spawnSync("touch", ["-r", "stamp", "src/a.ts"], { cwd: p.dir });
  rmSync(p.path("stamp"));
  expect(afterShell(p)).toContain("BAD in src/a.ts");
});

test("a file hidden by .git/info/exclude is a protected change (git's own file), held at the stop", () => {
  const p = committed();
  turnStarts(p);
  writeFileSync(p.path(".git/info/exclude"), "src/x.ts\n");
  writeFileSync(p.path("src/x.ts"), "export const x = BAD;\n");
  const told = afterShell(p);
  expect(told).toContain("a protected file was changed through the shell: .git/info/exclude");
  expect(stop(p)).toContain(".git/info/exclude");
});

test("a protected file changed and committed through the shell holds the stop until its old bytes are back", () => {
  const p = committed();
  const config = readFileSync(p.path("callbacks.config.json"), "utf8");
  turnStarts(p);
  writeFileSync(p.path("callbacks.config.json"), '{"callbacks":[]}\n');
  git(p, "commit", "-qam", "no checks", "--no-verify");
  expect(afterShell(p)).toContain(
    "a protected file was changed through the shell: callbacks.config.json",
  );
  expect(stop(p)).toContain("callbacks.config.json");
  writeFileSync(p.path("callbacks.config.json"), config);
  expect(stop(p)).not.toContain("callbacks.config.json");
});

test("a file a gate rule protects, changed and committed through the shell, holds the stop until put back", () => {
  const p = committed({ "locked/x.txt": "kept\n" }, GATE);
  turnStarts(p);
  writeFileSync(p.path("locked/x.txt"), "changed\n");
  git(p, "commit", "-qam", "sneak", "--no-verify");
  expect(afterShell(p)).toContain("a protected file was changed through the shell: locked/x.txt");
  expect(stop(p)).toContain("locked/x.txt");
  writeFileSync(p.path("locked/x.txt"), "kept\n");
  expect(stop(p)).not.toContain("locked/x.txt");
});

test("git made to fail through the shell (a garbled .git/config): the agent is told, its stop held until git answers", () => {
  const p = committed();
  turnStarts(p);
  const config = readFileSync(p.path(".git/config"), "utf8");
  writeFileSync(p.path(".git/config"), `${config}[garbled\n`);
  writeFileSync(p.path("src/a.ts"), "export const a = BAD;\n");
  expect(afterShell(p)).toContain("git fails in this repository");
  expect(stop(p)).toContain("git fails in this repository");
  writeFileSync(p.path(".git/config"), config);
  // git answers again: the record kept from before finds the edit
  expect(afterShell(p)).toContain("BAD in src/a.ts");
  expect(stop(p)).not.toContain("git fails");
});
