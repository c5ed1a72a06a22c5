/**
 * Shell edits hidden by new ignore rules: a `.gitignore` that ignores itself, or
 * `core.excludesFile` pointed at a list of the agent's. `cpilot hook codex` payloads around
 * commands run in a real git repository by the test itself, as the agent's shell would have
 * run them.
 */
import { afterEach, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type AgentProject, LINT } from "../agents/gemini/_agent-project.ts";
import { tempDir } from "../helpers/tmp.ts";
import { afterShell, committedCodexProject, git, stop, turnStarts } from "./_codex-shell-turn.ts";

let project: AgentProject | undefined;
afterEach(() => project?.remove());

function committed(files: Record<string, string> = {}): AgentProject {
  project = committedCodexProject(
    { callbacks: [LINT] },
    { "src/a.ts": "export const a = 111;\n", ".gitignore": "dist/\n", ...files },
  );
  return project;
}

test("a new .gitignore that ignores itself and a new file: the file is checked, named and held at the stop", () => {
  const p = committed();
  turnStarts(p);
  writeFileSync(p.path("src/.gitignore"), "*\n");
  writeFileSync(p.path("src/evil.ts"), "export const e = BAD;\n");
  const after = afterShell(p);
  expect(after).toContain("BAD in src/evil.ts");
  expect(after).toContain("src/evil.ts");
  // a later command in the same turn, after the record moved on past the rule
  writeFileSync(p.path("src/evil2.ts"), "export const f = BAD;\n");
  expect(afterShell(p)).toContain("BAD in src/evil2.ts");
  expect(stop(p)).toContain("BAD in src/evil");
});

test("core.excludesFile pointed at the agent's own list: the new file it lists is checked", () => {
  const p = committed();
  const list = join(tempDir("cpilot-excludes-"), "list");
  writeFileSync(list, "src/evil.ts\n");
  turnStarts(p);
  git(p, "config", "core.excludesFile", list);
  writeFileSync(p.path("src/evil.ts"), "export const e = BAD;\n");
  expect(afterShell(p)).toContain("BAD in src/evil.ts");
  expect(stop(p)).toContain("BAD in src/evil.ts");
});

test("a build output the project's own .gitignore ignored is not taken for the agent's, beside a new hiding rule", () => {
  const p = committed();
  turnStarts(p);
  mkdirSync(p.path("dist"));
  writeFileSync(p.path("dist/x.ts"), "export const x = BAD;\n");
  writeFileSync(p.path("src/.gitignore"), "*\n");
  writeFileSync(p.path("src/evil.ts"), "export const e = BAD;\n");
  const after = afterShell(p);
  expect(after).toContain("BAD in src/evil.ts");
  expect(after).not.toContain("dist/x.ts");
  expect(stop(p)).not.toContain("dist/x.ts");
});

test("ignore rules the agent added in one turn hide nothing in its next turn", () => {
  const p = committed();
  const list = join(tempDir("cpilot-excludes-"), "list");
  writeFileSync(list, "src/later.ts\n");
  turnStarts(p);
  git(p, "config", "core.excludesFile", list);
  mkdirSync(p.path("lib"));
  writeFileSync(p.path("lib/.gitignore"), "*\n");
  afterShell(p);
  stop(p);
  turnStarts(p);
  writeFileSync(p.path("src/later.ts"), "export const l = BAD;\n");
  writeFileSync(p.path("lib/evil.ts"), "export const e = BAD;\n");
  const named = afterShell(p).split("files your command changed:")[1] ?? "";
  expect(named).toContain("src/later.ts");
  expect(named).toContain("lib/evil.ts");
});
