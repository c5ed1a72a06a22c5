/**
 * The real Qwen Code 0.24.4, offline: `cpilot install qwen` wires the hooks into
 * .qwen/settings.json, a fake Chat Completions API scripts the model, and the test reads
 * what the model received next.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync, rmSync } from "node:fs";
import { proving } from "../../support/agent-matrix.ts";
import { afterLastTurn, type FakeOpenAI, startFakeOpenAI } from "../../support/fake-openai.ts";
import {
  badWriteSession,
  scriptedSession,
  sessionFiles,
  sessionTexts,
} from "../../support/real-cli-session.ts";
import { type AgentProject, agentProject, binary, cpilot } from "../gemini/_agent-project.ts";
import { QWEN_VERSION, qwenEnv, qwenHome, runQwen } from "./_qwen-cli.ts";

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

const writeFile = (path: string, content: string) => ({
  tool: "write_file",
  args: { file_path: path, content },
});

async function session(install: boolean, via?: string[], short = false) {
  ({ project, api } = await (short ? badWriteSession : scriptedSession)("qwen", writeFile));
  home = qwenHome();
  const env = qwenEnv(home, api.url);
  if (install) expect(cpilot(["install", "qwen"], { cwd: project.dir, env }).code).toBe(0);
  const run = await runQwen({
    cwd: project.dir,
    prompt: "do the edits",
    home,
    apiUrl: api.url,
    ...(via ? { via } : {}),
  });
  expect(api.escapes().map((r) => r.path)).toEqual([]);
  return { p: project, run, texts: sessionTexts(api), files: sessionFiles(project) };
}

describe("real Qwen Code with cpilot's hooks", () => {
  test("failure, formatter rewrite and gate refusal reach the model; the callbacks table comes at session start", async () => {
    const done = proving("qwen", QWEN_VERSION, ["failure", "resync", "refusal"]);
    const { run, texts, files } = await session(true);
    expect(run.code).toBe(0);
    expect(texts).not.toBeNull();
    if (texts === null) return;
    // SessionStart additionalContext: the table of callbacks
    expect(texts.first).toContain("cpilot runs these checks when you edit matching files");
    // PostToolUse additionalContext is appended to the tool's own output
    expect(texts.afterBad).toContain("Successfully created and wrote to new file");
    expect(texts.afterBad).toContain("BAD in src/a.ts");
    expect(files.bad).toBe("export const a = BAD;\n");
    expect(files.formatted).toBe("HELLO\n");
    expect(texts.afterFormat).toContain("HELLO");
    // the gate: no file, and the deny reason is the tool's result
    expect(files.refusedExists).toBe(false);
    expect(texts.afterRefused).toContain("locked/ is read-only for agents");
    done();
  }, 200_000);

  test("`cpilot run -- qwen` with the hooks installed: they deliver", async () => {
    const done = proving("qwen", QWEN_VERSION, ["runWithHooks"]);
    const { run, texts } = await session(true, [binary(), "run", "--"]);
    expect(run.code).toBe(0);
    expect(texts?.afterBad).toContain("BAD in src/a.ts");
    expect(run.stderr).not.toContain("a watcher checks its edits");
    done();
  }, 200_000);

  test("`cpilot run -- qwen` without hooks: the watcher checks the edits", async () => {
    const done = proving("qwen", QWEN_VERSION, ["runWithoutHooks"]);
    const { p, run, texts } = await session(false, [binary(), "run", "--"], true);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("a watcher checks its edits");
    expect(texts?.afterBad).not.toContain("BAD in src/a.ts");
    expect(readFileSync(p.path(".cpilot/last-results.md"), "utf8")).toContain("BAD in src/a.ts");
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
    project = agentProject("qwen", { callbacks: [bg] }, { "src/.keep": "" });
    api = await startFakeOpenAI([
      [writeFile(project.path("src/a.ts"), "export const a = 1;\n")],
      [
        {
          tool: "run_shell_command",
          // Qwen refuses a bare sleep without this comment
          args: { command: "sleep 4 # intentional-sleep: wait for a background check" },
        },
      ],
      [{ text: "done" }],
    ]);
    home = qwenHome();
    expect(
      cpilot(["install", "qwen"], { cwd: project.dir, env: qwenEnv(home, api.url) }).code,
    ).toBe(0);
    const run = await runQwen({ cwd: project.dir, prompt: "go", home, apiUrl: api.url });
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
