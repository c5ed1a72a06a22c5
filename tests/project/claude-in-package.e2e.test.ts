/**
 * The real Claude Code CLI started in a package of a monorepo whose hooks were installed at
 * its root (`cpilot install claude` there), driven by the scripted model on 127.0.0.1: the
 * root's hooks reach the session, and the nearest config judges each file it writes.
 */
import { afterEach, expect, test } from "bun:test";
import { mkdir } from "node:fs/promises";
import { cpilot } from "../helpers/binary.ts";
import { runClaude } from "../support/claude-cli.ts";
import { type FakeAnthropic, startFakeAnthropic, textOf } from "../support/fake-anthropic.ts";
import { makeTempProject, type TempProject } from "../support/temp-project.ts";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A callback that fails on a line holding `word`, named after the config it is in. */
const refuse = (name: string, word: string) => ({
  name,
  pattern: "*.ts",
  run: `if grep -n ${word} "$CP_CHANGED_FILE"; then echo "${name}: ${word} found" >&2; exit 1; fi`,
  timeout: 20,
  per: "file",
});

/** The files are left failing: a held stop would ask the script for turns it does not have. */
const NO_HELD_STOP = { maxStopBlocks: 0 };

const write = (file_path: string, content: string) => ({
  type: "tool_use" as const,
  name: "Write",
  input: { file_path, content },
});

for (const local of [true, false])
  test(`a session started in packages/a with the hooks installed at the root (${local ? "--local" : "shared settings"}): the package's config judges its file, the root's the sibling's`, async () => {
    const project: TempProject = await makeTempProject("cpilot-claude-pkg-");
    await mkdir(project.path("packages/a"), { recursive: true });
    await mkdir(project.path("packages/b"), { recursive: true });
    await project.write(
      "callbacks.config.json",
      JSON.stringify({ agent: NO_HELD_STOP, callbacks: [refuse("root-lint", "ROOTBAD")] }),
    );
    await project.write(
      "packages/a/callbacks.config.json",
      JSON.stringify({ agent: NO_HELD_STOP, callbacks: [refuse("pkg-lint", "TODO")] }),
    );
    await project.write("packages/a/package.json", '{ "name": "a" }\n');
    project.commit("monorepo");
    const api: FakeAnthropic = await startFakeAnthropic([
      // in the package: TODO fails the package's check; ROOTBAD is not its concern
      [write(project.path("packages/a/x.ts"), "export const x = 1; // TODO ROOTBAD\n")],
      // the sibling has no config of its own: the root's judges it
      [write(project.path("packages/b/y.ts"), "export const y = 1; // TODO ROOTBAD\n")],
      [{ type: "text", text: "done" }],
    ]);
    cleanups.push(
      () => api.close(),
      () => project.remove(),
    );
    const installed = cpilot(["install", "claude", ...(local ? ["--local"] : [])], {
      cwd: project.dir,
    });
    expect(installed.code).toBe(0);
    const run = await runClaude({
      cwd: project.path("packages/a"),
      apiUrl: api.url,
      prompt: "do the task",
    });
    expect({ code: run.exitCode, stderr: run.exitCode === 0 ? "" : run.stderr }).toEqual({
      code: 0,
      stderr: "",
    });
    expect(api.escapes()).toEqual([]);
    const afterA = textOf(api.turns()[1]!);
    expect(afterA).toContain("PostToolUse:Write hook blocking error");
    expect(afterA).toContain("'pkg-lint' failed on x.ts");
    expect(afterA).not.toContain("root-lint");
    const afterB = textOf(api.turns()[2]!);
    // named from the session's folder, as git names it
    expect(afterB).toContain("'root-lint' failed on ../b/y.ts");
    expect(afterB).not.toContain("pkg-lint");
  }, 90_000);

/** Fails on a line holding BAD, naming it `file:line:1: error: ...` from its config's folder. */
const BAD_LINT = {
  name: "pkg-lint",
  pattern: "*.ts",
  run: 'n=$(grep -n BAD "$CP_CHANGED_FILE" | head -n 1 | cut -d: -f1); if [ -n "$n" ]; then echo "$CP_CHANGED_FILE:$n:1: error: BAD found"; exit 1; fi',
  timeout: 20,
  per: "file",
};

test("a session started at the root that breaks a package's file, with Write and with Bash, is told the paths from the root", async () => {
  const project: TempProject = await makeTempProject("cpilot-claude-relpaths-");
  await mkdir(project.path("packages/web/src"), { recursive: true });
  await project.write("callbacks.config.json", JSON.stringify({ callbacks: [] }));
  await project.write(
    "packages/web/callbacks.config.json",
    JSON.stringify({ agent: NO_HELD_STOP, callbacks: [BAD_LINT] }),
  );
  await project.write("packages/web/src/a.ts", "export const a = 1;\n");
  project.commit("monorepo");
  const api: FakeAnthropic = await startFakeAnthropic([
    [write(project.path("packages/web/src/a.ts"), "export const a = 1;\nexport const b = BAD;\n")],
    [
      {
        type: "tool_use",
        name: "Bash",
        input: {
          command: "printf 'export const c = BAD;\\n' > packages/web/src/c.ts",
          description: "write it",
        },
      },
    ],
    [{ type: "text", text: "done" }],
  ]);
  cleanups.push(
    () => api.close(),
    () => project.remove(),
  );
  expect(cpilot(["install", "claude", "--local"], { cwd: project.dir }).code).toBe(0);
  const run = await runClaude({ cwd: project.dir, apiUrl: api.url, prompt: "do the task" });
  expect({ code: run.exitCode, stderr: run.exitCode === 0 ? "" : run.stderr }).toEqual({
    code: 0,
    stderr: "",
  });
  expect(api.escapes()).toEqual([]);
  const afterWrite = textOf(api.turns()[1]!);
  expect(afterWrite).toContain("PostToolUse:Write hook blocking error");
  expect(afterWrite).toContain("cpilot: judged by packages/web/callbacks.config.json:");
  expect(afterWrite).toContain("packages/web/src/a.ts:2:1 error: BAD found");
  expect(afterWrite).not.toContain(" src/a.ts");
  const afterBash = textOf(api.turns()[2]!);
  expect(afterBash).toContain("PostToolUse:Bash hook blocking error");
  expect(afterBash).toContain("cpilot: in packages/web/, judged by its own config:");
  expect(afterBash).toContain("packages/web/src/c.ts:1:1 error: BAD found");
  expect(afterBash).not.toContain(" src/c.ts");
}, 90_000);
