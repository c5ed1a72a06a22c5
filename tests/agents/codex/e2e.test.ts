/**
 * The real Codex CLI 0.169.0, offline: `cpilot install codex` writes the hooks and has Codex
 * trust them (Codex runs no hook it does not trust), a fake Responses API scripts the model,
 * and the test reads what the model received next.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { proving } from "../../support/agent-matrix.ts";
import { e2eSessions, expectDelivered } from "../../support/e2e-sessions.ts";
import { afterLastTurn } from "../../support/fake-openai.ts";
import { agentProject, binary, cpilot, LINT } from "../gemini/_agent-project.ts";
import { codexCli } from "./_codex-cli.ts";

const sessions = e2eSessions(codexCli);

const BAD_PATCH =
  "*** Begin Patch\n*** Update File: src/a.ts\n@@\n-export const a = 1;\n+export const a = BAD;\n*** End Patch\n";

/** A project whose one file the model makes BAD with one patch, cpilot installed with `installArgs`. */
async function setUp(installArgs: string[]) {
  const project = agentProject(
    "codex",
    { callbacks: [LINT] },
    { "src/a.ts": "export const a = 1;\n" },
  );
  const script = [[{ customTool: "apply_patch", input: BAD_PATCH }], [{ text: "done" }]];
  const s = await sessions.start(project, script, installArgs);
  return { ...s, install: s.installed ?? { code: 0, stdout: "", stderr: "" } };
}

const VERSION = "0.171.0";

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
    const { run, texts, files } = await sessions.scripted(addFile, ["--trust-project"]);
    expect(run.code).toBe(0);
    const told = expectDelivered(texts, files);
    expect(told.afterBad).toContain("Success. Updated the following files");
    done();
  }, 200_000);

  test("the stop is held while a check it was told about fails, at most agent.maxStopBlocks times", async () => {
    const { run } = await sessions.stopGateHeld(addFile, ["--trust-project"], VERSION);
    expect(run.code).toBe(0);
  }, 200_000);

  test("`cpilot run -- codex` with trusted hooks: they deliver, no watcher", async () => {
    const done = proving("codex", VERSION, ["runWithHooks"]);
    const { api, run: runCodex } = await setUp(["--trust-project"]);
    const run = await runCodex("make it BAD", [binary(), "run", "--"]);
    expect(run.code).toBe(0);
    expect(run.stderr).not.toContain("a watcher checks its edits");
    expect(afterLastTurn(api.turns()[1] as never)).toContain("BAD in src/a.ts");
    done();
  }, 180_000);

  test("install --trust-project: a failing callback after apply_patch reaches the model beside the tool's own output", async () => {
    const { p, api, env, install, run: runCodex } = await setUp(["--trust-project"]);
    expect(install.stderr).toContain("Codex runs only hooks it trusts: recorded in");
    expect(install.stderr).toContain(":pre_tool_use:0:0");
    expect(install.stderr).not.toContain("codex_hooks");
    const run = await runCodex("make it BAD");
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
    const doctor = cpilot(["doctor"], { cwd: p.dir, env });
    expect(doctor.stdout + doctor.stderr).not.toContain("does not trust");
  }, 180_000);

  test("without project trust: install prints the one step, doctor says why, and `cpilot run -- codex` falls back to the watcher", async () => {
    const done = proving("codex", VERSION, ["runWithoutHooks"]);
    const { p, api, env, install, run: runCodex } = await setUp([]);
    expect(install.stderr).toContain("in a project it does not trust");
    expect(install.stderr).toMatch(/^\$ cpilot install codex --trust-project$/m);
    const doctor = cpilot(["doctor"], { cwd: p.dir, env });
    expect(doctor.stdout + doctor.stderr).toContain("does not trust");
    const run = await runCodex("make it BAD", [binary(), "run", "--"]);
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
