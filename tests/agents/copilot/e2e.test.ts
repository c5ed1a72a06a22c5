/**
 * The real GitHub Copilot CLI 1.0.102, offline: `cpilot install copilot --trust-project`
 * wires the hooks (and trusts the folder, without which Copilot loads none), a fake Chat
 * Completions API scripts the model, and the test reads what the model received next.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { proving } from "../../support/agent-matrix.ts";
import { afterLastTurn, type FakeOpenAI, startFakeOpenAI } from "../../support/fake-openai.ts";
import {
  badWriteSession,
  scriptedSession,
  sessionFiles,
  sessionTexts,
} from "../../support/real-cli-session.ts";
import { type AgentProject, agentProject, binary, cpilot } from "../gemini/_agent-project.ts";
import { COPILOT_VERSION, copilotEnv, copilotHome, runCopilot } from "./_copilot-cli.ts";

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

const create = (path: string, content: string) => ({
  tool: "create",
  args: { path, file_text: content },
});

async function session(install: string[] | null, via?: string[], short = false) {
  ({ project, api } = await (short ? badWriteSession : scriptedSession)("copilot", create));
  home = copilotHome();
  const env = copilotEnv(home, api.url);
  const installed =
    install === null ? null : cpilot(["install", "copilot", ...install], { cwd: project.dir, env });
  if (installed !== null) expect(installed.code).toBe(0);
  const run = await runCopilot({
    cwd: project.dir,
    prompt: "do the edits",
    home,
    apiUrl: api.url,
    ...(via ? { via } : {}),
  });
  expect(api.escapes().map((r) => r.path)).toEqual([]);
  return { p: project, run, installed, texts: sessionTexts(api), files: sessionFiles(project) };
}

describe("real Copilot CLI with cpilot's hooks", () => {
  test("failure, formatter rewrite and gate refusal reach the model; the callbacks table comes at session start", async () => {
    const done = proving("copilot", COPILOT_VERSION, ["failure", "resync", "refusal"]);
    const { run, installed, texts, files } = await session(["--trust-project"]);
    expect(installed?.stderr).toContain("Copilot CLI now trusts this folder");
    expect(run.code).toBe(0);
    expect(texts).not.toBeNull();
    if (texts === null) return;
    // sessionStart additionalContext: the table of callbacks
    expect(texts.first).toContain("cpilot runs these checks when you edit matching files");
    // postToolUse additionalContext is appended to the tool's own output
    expect(texts.afterBad).toContain("Created file");
    expect(texts.afterBad).toContain("BAD in src/a.ts");
    expect(files.bad).toBe("export const a = BAD;\n");
    // the formatter's rewrite
    expect(files.formatted).toBe("HELLO\n");
    expect(texts.afterFormat).toContain("HELLO");
    // the gate: no file, and the model is told why
    expect(files.refusedExists).toBe(false);
    expect(texts.afterRefused).toContain("Denied by preToolUse hook");
    expect(texts.afterRefused).toContain("locked/ is read-only for agents");
    done();
  }, 200_000);

  test("`cpilot run -- copilot` with the hooks installed: they deliver, no watcher", async () => {
    const done = proving("copilot", COPILOT_VERSION, ["runWithHooks"]);
    const { run, texts } = await session(["--trust-project"], [binary(), "run", "--"]);
    expect(run.code).toBe(0);
    expect(texts?.afterBad).toContain("BAD in src/a.ts");
    expect(run.stderr).not.toContain("a watcher checks its edits");
    done();
  }, 200_000);

  test("`cpilot run -- copilot` without hooks: the watcher checks the edits", async () => {
    const done = proving("copilot", COPILOT_VERSION, ["runWithoutHooks"]);
    const { p, run, texts } = await session(null, [binary(), "run", "--"], true);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("a watcher checks its edits");
    expect(texts?.afterBad).not.toContain("BAD in src/a.ts");
    const results = await Bun.file(p.path(".cpilot/last-results.md")).text();
    expect(results).toContain("BAD in src/a.ts");
    done();
  }, 200_000);

  test("a background callback's failure reaches the model at a later call", async () => {
    const bg = {
      name: "e2e",
      pattern: "**/*.ts",
      run: "sleep 1; echo '3 specs, 1 failure'; exit 1",
      blocking: false,
      per: "file",
    };
    project = agentProject("copilot", { callbacks: [bg] }, { "src/.keep": "" });
    api = await startFakeOpenAI([
      [create(project.path("src/a.ts"), "export const a = 1;\n")],
      [{ tool: "bash", args: { command: "sleep 4", description: "wait" } }],
      [{ text: "done" }],
    ]);
    home = copilotHome();
    expect(
      cpilot(["install", "copilot", "--trust-project"], {
        cwd: project.dir,
        env: copilotEnv(home, api.url),
      }).code,
    ).toBe(0);
    const run = await runCopilot({ cwd: project.dir, prompt: "go", home, apiUrl: api.url });
    expect(run.code).toBe(0);
    const turns = api.turns();
    expect(afterLastTurn(turns[1] as never)).toContain("'e2e' started in background on src/a.ts");
    const later = turns
      .slice(2)
      .map((t) => afterLastTurn(t as never))
      .join("\n");
    expect(later).toMatch(/'e2e' \(background run [a-z0-9-]+\) failed on src\/a\.ts/);
    expect(later).toContain("3 specs, 1 failure");
  }, 200_000);
});
