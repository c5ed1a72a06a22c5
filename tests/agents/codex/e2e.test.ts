/**
 * The real Codex CLI 0.169.0, offline: `cpilot install codex` writes the hooks and has Codex
 * trust them (Codex runs no hook it does not trust), a fake Responses API scripts the model,
 * and the test reads what the model received next.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { proving } from "../../support/agent-matrix.ts";
import { afterLastTurn, type FakeOpenAI, startFakeOpenAI } from "../../support/fake-openai.ts";
import { scriptedSession, sessionFiles, sessionTexts } from "../../support/real-cli-session.ts";
import { type AgentProject, agentProject, binary, cpilot, LINT } from "../gemini/_agent-project.ts";
import { codexEnv, codexHome, runCodex } from "./_codex-cli.ts";

let project: AgentProject | undefined;
let api: FakeOpenAI | undefined;
let home: string | undefined;
afterEach(async () => {
  project?.remove();
  await api?.close();
  if (home) rmSync(home, { recursive: true, force: true });
  project = undefined;
  api = undefined;
  home = undefined;
});

const BAD_PATCH =
  "*** Begin Patch\n*** Update File: src/a.ts\n@@\n-export const a = 1;\n+export const a = BAD;\n*** End Patch\n";

async function setUp(installArgs: string[]) {
  project = agentProject("codex", { callbacks: [LINT] }, { "src/a.ts": "export const a = 1;\n" });
  api = await startFakeOpenAI([
    [{ customTool: "apply_patch", input: BAD_PATCH }],
    [{ text: "done" }],
  ]);
  home = codexHome(api.url);
  const install = cpilot(["install", "codex", ...installArgs], {
    cwd: project.dir,
    env: codexEnv(home, api.url),
  });
  expect(install.code).toBe(0);
  return { p: project, api, home, install };
}

const VERSION = "0.169.0";

/** Codex writes files with apply_patch; a new file is an `*** Add File:` patch. */
const addFile = (path: string, content: string) => ({
  customTool: "apply_patch",
  input: `*** Begin Patch\n*** Add File: ${path}\n${content
    .split("\n")
    .filter((line, i, all) => i < all.length - 1 || line !== "")
    .map((line) => `+${line}`)
    .join("\n")}\n*** End Patch\n`,
});

describe("real Codex CLI with cpilot's hooks", () => {
  test("failure, formatter rewrite and gate refusal reach the model", async () => {
    const done = proving("codex", VERSION, ["failure", "resync", "refusal"]);
    ({ project, api } = await scriptedSession("codex", addFile));
    home = codexHome(api.url);
    const env = codexEnv(home, api.url);
    expect(cpilot(["install", "codex", "--trust-project"], { cwd: project.dir, env }).code).toBe(0);
    const run = await runCodex({ cwd: project.dir, prompt: "do the edits", home, apiUrl: api.url });
    expect(run.code).toBe(0);
    expect(api.escapes().map((r) => r.path)).toEqual([]);
    const texts = sessionTexts(api);
    const files = sessionFiles(project);
    expect(texts).not.toBeNull();
    if (texts === null) return;
    expect(texts.afterBad).toContain("Success. Updated the following files");
    expect(texts.afterBad).toContain("BAD in src/a.ts");
    expect(files.formatted).toBe("HELLO\n");
    expect(texts.afterFormat).toContain("HELLO");
    expect(files.refusedExists).toBe(false);
    expect(texts.afterRefused).toContain("locked/ is read-only for agents");
    done();
  }, 200_000);

  test("`cpilot run -- codex` with trusted hooks: they deliver, no watcher", async () => {
    const done = proving("codex", VERSION, ["runWithHooks"]);
    const { p, api, home } = await setUp(["--trust-project"]);
    const run = await runCodex({
      cwd: p.dir,
      prompt: "make it BAD",
      home,
      apiUrl: api.url,
      via: [binary(), "run", "--"],
    });
    expect(run.code).toBe(0);
    expect(run.stderr).not.toContain("a watcher checks its edits");
    expect(afterLastTurn(api.turns()[1] as never)).toContain("BAD in src/a.ts");
    done();
  }, 180_000);

  test("install --trust-project: a failing callback after apply_patch reaches the model beside the tool's own output", async () => {
    const { p, api, home, install } = await setUp(["--trust-project"]);
    expect(install.stderr).toContain("Codex runs only hooks it trusts: recorded in");
    expect(install.stderr).toContain(":pre_tool_use:0:0");
    expect(install.stderr).not.toContain("codex_hooks");
    const run = await runCodex({ cwd: p.dir, prompt: "make it BAD", home, apiUrl: api.url });
    expect(run.code).toBe(0);
    expect(api.escapes().map((r) => r.path)).toEqual([]);
    expect(readFileSync(p.path("src/a.ts"), "utf8")).toBe("export const a = BAD;\n");
    const turns = api.turns();
    expect(turns.length).toBeGreaterThanOrEqual(2);
    const next = afterLastTurn(turns[1] as never);
    expect(next).toContain("Success. Updated the following files");
    expect(next).toContain("'lint' failed on src/a.ts");
    expect(next).toContain("BAD in src/a.ts");
    // doctor agrees the hooks will run
    const doctor = cpilot(["doctor"], { cwd: p.dir, env: codexEnv(home, api.url) });
    expect(doctor.stdout + doctor.stderr).not.toContain("does not trust");
  }, 180_000);

  test("without project trust: install prints the one step, doctor says why, and `cpilot run -- codex` falls back to the watcher", async () => {
    const done = proving("codex", VERSION, ["runWithoutHooks"]);
    const { p, api, home, install } = await setUp([]);
    expect(install.stderr).toContain("in a project it does not trust");
    expect(install.stderr).toMatch(/^\$ cpilot install codex --trust-project$/m);
    const doctor = cpilot(["doctor"], { cwd: p.dir, env: codexEnv(home, api.url) });
    expect(doctor.stdout + doctor.stderr).toContain("does not trust");
    const run = await runCodex({
      cwd: p.dir,
      prompt: "make it BAD",
      home,
      apiUrl: api.url,
      via: [binary(), "run", "--"],
    });
    expect(run.code).toBe(0);
    expect(api.escapes()).toEqual([]);
    expect(run.stderr).toContain("a watcher checks its edits");
    expect(run.stderr).toMatch(/^\$ cpilot install codex --trust-project$/m);
    const next = afterLastTurn(api.turns()[1] as never);
    expect(next).not.toContain("BAD in src/a.ts"); // no hook ran
    expect(existsSync(p.path(".cpilot/last-results.md"))).toBe(true);
    expect(readFileSync(p.path(".cpilot/last-results.md"), "utf8")).toContain("BAD in src/a.ts");
    done();
  }, 180_000);
});
