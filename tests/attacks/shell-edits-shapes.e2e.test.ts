/**
 * Shapes of shell edits a stranger would try, through `cpilot hook codex` payloads in real
 * git repositories: renames, links, names with newlines, nested repositories, a writer left
 * running after the call, a secret written then removed.
 */
import { afterEach, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { type AgentProject, LINT } from "../agents/gemini/_agent-project.ts";
import { afterShell, committedCodexProject, git, stop, turnStarts } from "./_codex-shell-turn.ts";

let project: AgentProject | undefined;
afterEach(() => project?.remove());

function committed(files: Record<string, string> = {}, lint: unknown = LINT): AgentProject {
  project = committedCodexProject(
    { callbacks: [lint] },
    { "src/a.ts": "export const a = BAD;\n", ".gitignore": ".env\n", ...files },
  );
  return project;
}

test("a renamed file (mv, git mv) is checked where it now is, and its old name is told as deleted", () => {
  const p = committed({ "src/b.ts": "export const b = BAD;\n" });
  turnStarts(p);
  renameSync(p.path("src/a.ts"), p.path("src/moved.ts"));
  const told = afterShell(p);
  expect(told).toContain("src/a.ts (deleted)");
  expect(told).toContain("BAD in src/moved.ts");
  git(p, "mv", "src/b.ts", "src/c.ts");
  const again = afterShell(p);
  expect(again).toContain("src/b.ts (deleted)");
  expect(again).toContain("BAD in src/c.ts");
});

test("a link made through the shell to a protected file or outside the project is a protected change", () => {
  const p = committed();
  turnStarts(p);
  symlinkSync(p.path(".git/hooks"), p.path("src/hooks-link"));
  symlinkSync("/etc/passwd", p.path("src/out.ts"));
  const told = afterShell(p);
  expect(told).toContain("src/out.ts");
  expect(told).toContain("src/hooks-link");
  expect(told).not.toContain("root:x:0");
});

test(".env written then deleted in one call: nothing to revert, the stop is not held for it", () => {
  const p = committed({ "src/a.ts": "export const a = 1;\n" });
  turnStarts(p);
  writeFileSync(p.path(".env"), "TOKEN=x\n");
  rmSync(p.path(".env"));
  expect(afterShell(p)).not.toContain(".env");
  expect(stop(p)).not.toContain(".env");
  // written in one call, deleted in the next: told, then let go
  writeFileSync(p.path(".env"), "TOKEN=x\n");
  expect(afterShell(p)).toContain("protected file was changed through the shell: .env");
  rmSync(p.path(".env"));
  afterShell(p);
  expect(stop(p)).not.toContain(".env");
});

test("a name with a newline is found and named", () => {
  const p = committed({ "src/a.ts": "export const a = 1;\n" });
  turnStarts(p);
  writeFileSync(p.path("src/we\nird.ts"), "export const w = BAD;\n");
  const told = afterShell(p);
  expect(told).toContain("files your command changed: src/we\\nird.ts");
});

test("a file changed in a nested repository is seen", () => {
  const p = committed({ "src/a.ts": "export const a = 1;\n" });
  mkdirSync(p.path("inner"));
  spawnSync("git", ["init", "-q"], { cwd: p.path("inner") });
  writeFileSync(p.path("inner/x.ts"), "export const x = 1;\n");
  spawnSync("git", ["add", "-A"], { cwd: p.path("inner") });
  spawnSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "i"], {
    cwd: p.path("inner"),
  });
  turnStarts(p);
  writeFileSync(p.path("inner/x.ts"), "export const x = BAD;\n");
  writeFileSync(p.path("inner/y.ts"), "export const y = BAD;\n");
  // Named to the agent; whether they are checked is decided as for an edit tool's files.
  expect(afterShell(p)).toContain("files your command changed: inner/x.ts, inner/y.ts");
});

test("a writer the shell left running writes after the call: the stop sees it", () => {
  const p = committed({ "src/a.ts": "export const a = 1;\n" });
  turnStarts(p);
  expect(afterShell(p)).not.toContain("src/late.ts");
  writeFileSync(p.path("src/late.ts"), "export const l = BAD;\n"); // after the call returned
  expect(stop(p)).toContain("BAD in src/late.ts");
});

test("thousands of files written in one call: all checked, fifty named, the rest counted", () => {
  // One grep over every file: the check's own speed is not what is tested.
  const grepAll = {
    name: "lint",
    pattern: "**/*.ts",
    timeout: 600,
    run: 'printf "%s\\n" "$CP_CHANGED_FILES" | xargs -d "\\n" grep -H BAD && exit 1; exit 0',
  };
  const p = committed({ "src/a.ts": "export const a = 1;\n" }, grepAll);
  turnStarts(p);
  mkdirSync(p.path("gen"));
  for (let i = 0; i < 2000; i++)
    writeFileSync(p.path(`gen/f${String(i).padStart(4, "0")}.ts`), "export const g = 1;\n");
  writeFileSync(p.path("gen/f9999.ts"), "export const g = BAD;\n");
  const told = afterShell(p);
  expect(told).toContain("gen/f9999.ts:export const g = BAD;");
  expect(told).toContain("gen/f0049.ts and 1951 more (all checked)");
  expect(told).not.toContain("gen/f0050.ts");
});
