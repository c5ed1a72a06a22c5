/**
 * The real OpenCode 1.18.33, offline: `cpilot install opencode` writes its plugin
 * (.opencode/plugins/cpilot.ts), a fake Chat Completions API scripts the model, and the
 * test reads what the model received next.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync, rmSync } from "node:fs";
import { proving } from "../../support/agent-matrix.ts";
import type { FakeOpenAI } from "../../support/fake-openai.ts";
import {
  badWriteSession,
  scriptedSession,
  sessionFiles,
  sessionTexts,
} from "../../support/real-cli-session.ts";
import { type AgentProject, binary, cpilot } from "../gemini/_agent-project.ts";
import { OPENCODE_VERSION, opencodeEnv, opencodeHome, runOpencode } from "./_opencode-cli.ts";

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

const write = (path: string, content: string) => ({
  tool: "write",
  args: { filePath: path, content },
});

async function session(install: boolean, via?: string[], short = false) {
  ({ project, api } = await (short ? badWriteSession : scriptedSession)("opencode", write));
  home = opencodeHome();
  const env = opencodeEnv(home, api.url);
  if (install) expect(cpilot(["install", "opencode"], { cwd: project.dir, env }).code).toBe(0);
  const run = await runOpencode({
    cwd: project.dir,
    prompt: "do the edits",
    home,
    apiUrl: api.url,
    ...(via ? { via } : {}),
  });
  expect(api.escapes().map((r) => r.path)).toEqual([]);
  return { p: project, run, texts: sessionTexts(api), files: sessionFiles(project) };
}

describe("real OpenCode with cpilot's plugin", () => {
  test("failure, formatter rewrite and gate refusal reach the model", async () => {
    const done = proving("opencode", OPENCODE_VERSION, ["failure", "resync", "refusal"]);
    const { run, texts, files } = await session(true);
    expect(run.code).toBe(0);
    expect(texts).not.toBeNull();
    if (texts === null) return;
    expect(texts.afterBad).toContain("Wrote file successfully");
    expect(texts.afterBad).toContain("BAD in src/a.ts");
    expect(files.bad).toBe("export const a = BAD;\n");
    expect(files.formatted).toBe("HELLO\n");
    expect(texts.afterFormat).toContain("HELLO");
    expect(files.refusedExists).toBe(false);
    expect(texts.afterRefused).toContain("locked/ is read-only for agents");
    done();
  }, 200_000);

  test("`cpilot run -- opencode` with the plugin installed: it delivers", async () => {
    const done = proving("opencode", OPENCODE_VERSION, ["runWithHooks"]);
    const { run, texts } = await session(true, [binary(), "run", "--"]);
    expect(run.code).toBe(0);
    expect(texts?.afterBad).toContain("BAD in src/a.ts");
    expect(run.stderr).not.toContain("a watcher checks its edits");
    done();
  }, 200_000);

  test("`cpilot run -- opencode` without the plugin: the watcher checks the edits", async () => {
    const done = proving("opencode", OPENCODE_VERSION, ["runWithoutHooks"]);
    const { p, run, texts } = await session(false, [binary(), "run", "--"], true);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("a watcher checks its edits");
    expect(texts?.afterBad).not.toContain("BAD in src/a.ts");
    expect(readFileSync(p.path(".cpilot/last-results.md"), "utf8")).toContain("BAD in src/a.ts");
    done();
  }, 200_000);
});
