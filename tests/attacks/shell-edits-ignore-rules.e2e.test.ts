/**
 * Shell edits hidden by new ignore rules: a `.gitignore` that ignores itself, or
 * `core.excludesFile` pointed at a list of the agent's. `cpilot hook codex` payloads around
 * commands run in a real git repository by the test itself, as the agent's shell would have
 * run them.
 */
import { afterEach, expect, test } from "bun:test";
import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type AgentProject, agentProject, LINT } from "../agents/gemini/_agent-project.ts";
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

test("a line added to a tracked .gitignore hides a new file: the file is checked and named", () => {
  const p = committed({ "src/.gitignore": "*.log\n" });
  turnStarts(p);
  writeFileSync(p.path("src/.gitignore"), "*.log\nevil.ts\n");
  writeFileSync(p.path("src/evil.ts"), "export const e = BAD;\n");
  const after = afterShell(p);
  expect(after).toContain("BAD in src/evil.ts");
  expect(stop(p)).toContain("BAD in src/evil.ts");
});

test("a new .gitignore git lists (it does not ignore itself) hides a new file: the file is checked", () => {
  const p = committed();
  turnStarts(p);
  mkdirSync(p.path("lib"));
  writeFileSync(p.path("lib/.gitignore"), "evil.ts\n");
  writeFileSync(p.path("lib/evil.ts"), "export const e = BAD;\n");
  expect(afterShell(p)).toContain("BAD in lib/evil.ts");
});

test("a line added to .git/info/exclude or to the excludes file hides a new file: it is checked", () => {
  const list = join(tempDir("cpilot-excludes-"), "list");
  writeFileSync(list, "*.tmp\n");
  const p = committed();
  git(p, "config", "core.excludesFile", list);
  turnStarts(p);
  appendFileSync(p.path(".git/info/exclude"), "src/one.ts\n");
  appendFileSync(list, "src/two.ts\n");
  writeFileSync(p.path("src/one.ts"), "export const o = BAD;\n");
  writeFileSync(p.path("src/two.ts"), "export const t = BAD;\n");
  const named = afterShell(p).split("files your command changed:")[1] ?? "";
  expect(named).toContain("src/one.ts");
  expect(named).toContain("src/two.ts");
});

test("a negation removed from a tracked .gitignore hides a new file: it is checked", () => {
  const p = committed({ "gen/.gitignore": "*.ts\n!keep.ts\n" });
  turnStarts(p);
  writeFileSync(p.path("gen/.gitignore"), "*.ts\n");
  writeFileSync(p.path("gen/keep.ts"), "export const k = BAD;\n");
  expect(afterShell(p)).toContain("BAD in gen/keep.ts");
});

test("a build output an old rule of a changed .gitignore ignores is not taken for the agent's", () => {
  const p = committed();
  turnStarts(p);
  writeFileSync(p.path(".gitignore"), "dist/\n*.log\n");
  mkdirSync(p.path("dist"));
  writeFileSync(p.path("dist/x.ts"), "export const x = BAD;\n");
  const after = afterShell(p);
  expect(after).toContain(".gitignore");
  expect(after).not.toContain("dist/x.ts");
});

test("a project below the repository's top: a hidden new file is checked, a build output is not", () => {
  project = agentProject("codex", null, {
    "app/callbacks.config.json": JSON.stringify({ callbacks: [LINT] }),
    "app/.gitignore": "dist/\n",
    "app/src/a.ts": "export const a = 111;\n",
  });
  const p = project;
  git(p, "add", "-A");
  git(p, "commit", "-qm", "start");
  const at = { cwd: p.path("app") };
  p.hook({ hook_event_name: "UserPromptSubmit", prompt: "go", ...at });
  appendFileSync(p.path("app/.gitignore"), "*.log\n");
  mkdirSync(p.path("app/dist"));
  writeFileSync(p.path("app/dist/x.ts"), "export const x = BAD;\n");
  writeFileSync(p.path("app/src/.gitignore"), "evil.ts\n");
  writeFileSync(p.path("app/src/evil.ts"), "export const e = BAD;\n");
  const after = afterShell(p, "…", at);
  expect(after).toContain("BAD in src/evil.ts");
  expect(after).not.toContain("dist/x.ts");
});

test("HOME empty: the excludes file git reads is not taken for one in the project", () => {
  const p = committed();
  const home = { HOME: "" };
  p.hook({ hook_event_name: "UserPromptSubmit", prompt: "go" }, home);
  mkdirSync(p.path(".config/git"), { recursive: true });
  writeFileSync(p.path(".config/git/ignore"), "src/evil.ts\n");
  writeFileSync(p.path("src/evil.ts"), "export const e = BAD;\n");
  const after = p.hook(
    {
      hook_event_name: "PostToolUse",
      tool_name: "Bash",
      tool_input: { command: "…" },
      tool_use_id: "call_1",
      tool_response: "",
    },
    home,
  );
  expect(JSON.stringify(after.json)).toContain("BAD in src/evil.ts");
});

test("a line added to a tracked .gitignore hides a new folder: the files deep in it are checked", () => {
  const p = committed();
  turnStarts(p);
  appendFileSync(p.path(".gitignore"), "gen/\n");
  mkdirSync(p.path("gen/deep"), { recursive: true });
  writeFileSync(p.path("gen/deep/evil.ts"), "export const e = BAD;\n");
  expect(afterShell(p)).toContain("BAD in gen/deep/evil.ts");
});

test("a file an old rule already hid is not taken for the agent's when a new rule in the same file also matches it", () => {
  const p = committed({ ".gitignore": "*.log.ts\n" });
  turnStarts(p);
  writeFileSync(p.path("src/debug.log.ts"), "export const d = BAD;\n");
  appendFileSync(p.path(".gitignore"), "src/debug.log.ts\n");
  const after = afterShell(p);
  expect(after).not.toContain("src/debug.log.ts");
  expect(stop(p)).not.toContain("src/debug.log.ts");
});

test("a file an old rule kept in (a `!` rule) is the agent's when a new rule in the same file hides it", () => {
  const p = committed({ ".gitignore": "*.gen.ts\n!src/keep.gen.ts\n" });
  turnStarts(p);
  writeFileSync(p.path("src/keep.gen.ts"), "export const k = BAD;\n");
  appendFileSync(p.path(".gitignore"), "src/keep.gen.ts\n");
  expect(afterShell(p)).toContain("BAD in src/keep.gen.ts");
  expect(stop(p)).toContain("BAD in src/keep.gen.ts");
});
