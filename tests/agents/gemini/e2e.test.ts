/**
 * The real Gemini CLI 0.61.0, offline: `cpilot install gemini` wires the hooks, a fake
 * Gemini API scripts the model, and the test reads what the model received next.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { tempDir } from "../../helpers/tmp.ts";
import { provedTest } from "../../support/agent-matrix.ts";
import {
  type AgentProject,
  agentProject,
  binary,
  cpilot,
  FORMAT,
  GATE,
  LINT,
} from "./_agent-project.ts";
import { type FakeGemini, lastUserText, startFakeGemini } from "./_fake-gemini.ts";
import { runGemini } from "./_gemini-cli.ts";

const GEMINI = { name: "gemini", version: "0.61.0" };

let project: AgentProject | undefined;
let api: FakeGemini | undefined;
afterEach(async () => {
  project?.remove();
  await api?.close();
  project = undefined;
  api = undefined;
});

async function session(
  config: unknown,
  firstTurn: (p: AgentProject) => Record<string, unknown>[],
  files: Record<string, string> = {},
) {
  project = agentProject("gemini", config, files);
  const p = project;
  const install = cpilot(["install", "gemini"], { cwd: p.dir });
  expect(install.code).toBe(0);
  api = await startFakeGemini([firstTurn(p) as never, [{ text: "done" }]]);
  const run = await runGemini({ cwd: p.dir, prompt: "do the edit", apiUrl: api.url });
  expect(api.escapes()).toEqual([]);
  const turns = api.turns();
  expect(turns.length).toBeGreaterThanOrEqual(2);
  return { p, run, next: lastUserText(turns[1] as never) };
}

const write = (path: string, content: string) => ({
  functionCall: { name: "write_file", args: { file_path: path, content } },
});

describe("real Gemini CLI with cpilot's hooks", () => {
  provedTest(
    GEMINI,
    ["failure"],
    "a failing callback after write_file reaches the model in the tool result (AfterTool additionalContext)",
    async () => {
      const { p, run, next } = await session({ callbacks: [LINT] }, (p) => [
        write(p.path("src/a.ts"), "let x = BAD;\n"),
      ]);
      expect(run.code).toBe(0);
      expect(readFileSync(p.path("src/a.ts"), "utf8")).toBe("let x = BAD;\n");
      expect(next).toContain("Successfully created and wrote to new file");
      expect(next).toContain("<hook_context>");
      expect(next).toContain("'lint' failed on src/a.ts");
      expect(next).toContain("BAD in src/a.ts");
      // BeforeAgent: the first request carries the callbacks table with the prompt
      expect(lastUserText(api?.turns()[0] as never)).toContain(
        "cpilot runs these checks when you edit matching files",
      );
    },
    90_000,
  );

  provedTest(
    GEMINI,
    ["refusal"],
    "BeforeTool deny: no file, and the model gets the gate's reason as the tool error",
    async () => {
      const { p, next } = await session({ callbacks: [LINT], gate: GATE }, (p) => [
        write(p.path("locked/x.ts"), "hi\n"),
      ]);
      expect(existsSync(p.path("locked/x.ts"))).toBe(false);
      expect(next).toContain("Tool execution blocked");
      expect(next).toContain("locked/ is read-only for agents");
    },
    90_000,
  );

  provedTest(
    GEMINI,
    ["resync"],
    "a formatter's rewrite comes back as a diff; a gate plugin's change is what lands on disk",
    async () => {
      const { p, next } = await session({ callbacks: [FORMAT], gate: GATE }, (p) => [
        write(p.path("notes.fmt"), "hello\n"),
      ]);
      expect(readFileSync(p.path("notes.fmt"), "utf8")).toBe("HELLO\n");
      expect(next).toContain("+HELLO");
      project?.remove();
      await api?.close();
      const second = await session({ callbacks: [], gate: GATE }, (p) => [
        write(p.path("a.mod"), "mine\n"),
      ]);
      expect(readFileSync(second.p.path("a.mod"), "utf8")).toBe("MODIFIED\n");
      expect(second.next).toContain("write gate changed this write_file");
    },
    120_000,
  );
});

/** `cpilot run -- gemini` on a project whose one write (BAD, to `file`) the lint fails. */
async function runThroughCpilot(install: boolean, file: string) {
  project = agentProject("gemini", { callbacks: [LINT] });
  const p = project;
  if (install) expect(cpilot(["install", "gemini"], { cwd: p.dir }).code).toBe(0);
  const fake = await startFakeGemini([[write(p.path(file), "BAD\n") as never], [{ text: "done" }]]);
  api = fake;
  const via = [binary(), "run", "--"];
  const run = await runGemini({ cwd: p.dir, prompt: "go", apiUrl: fake.url, via });
  expect(run.code).toBe(0);
  return { p, run, api: fake };
}

describe("folder trust (Gemini 0.61 trusts no folder by default)", () => {
  test("install --trust-project writes the trust file, keeping its entries; until then `cpilot run` falls back to the watcher and Gemini exits 55", async () => {
    project = agentProject("gemini", { callbacks: [LINT] });
    const p = project;
    const home = tempDir("cpilot-gemini-trust-home-");
    const trustFile = join(home, "elsewhere", "trusted.json");
    mkdirSync(dirname(trustFile), { recursive: true });
    writeFileSync(
      trustFile,
      JSON.stringify({ "/srv/other": "TRUST_FOLDER", "/x": "DO_NOT_TRUST" }),
    );
    const env = { HOME: home, GEMINI_CLI_TRUSTED_FOLDERS_PATH: trustFile };
    try {
      const plain = cpilot(["install", "gemini"], { cwd: p.dir, env });
      expect(plain.stderr).toMatch(/^\$ cpilot install gemini --trust-project$/m);
      api = await startFakeGemini([[write(p.path("a.ts"), "BAD\n") as never], [{ text: "done" }]]);
      const untrusted = await runGemini({
        cwd: p.dir,
        prompt: "go",
        apiUrl: api.url,
        via: [binary(), "run", "--"],
        env: { GEMINI_CLI_TRUSTED_FOLDERS_PATH: trustFile },
        folderTrust: true,
      });
      expect(untrusted.stderr).toContain("so a watcher checks its edits");
      expect(untrusted.stderr).toContain("$ cpilot install gemini --trust-project");
      expect(untrusted.code).toBe(55);
      expect(api.turns()).toHaveLength(0);

      const trusted = cpilot(["install", "gemini", "--trust-project"], { cwd: p.dir, env });
      expect(trusted.code).toBe(0);
      expect(trusted.stderr).toContain(`Gemini CLI now trusts this folder: added to ${trustFile}`);
      expect(JSON.parse(readFileSync(trustFile, "utf8"))).toEqual({
        "/srv/other": "TRUST_FOLDER",
        "/x": "DO_NOT_TRUST",
        [p.dir]: "TRUST_FOLDER",
      });
      const run = await runGemini({
        cwd: p.dir,
        prompt: "go",
        apiUrl: api.url,
        via: [binary(), "run", "--"],
        env: { GEMINI_CLI_TRUSTED_FOLDERS_PATH: trustFile },
        folderTrust: true,
      });
      expect(run.code).toBe(0);
      expect(run.stderr).not.toContain("a watcher checks its edits");
      expect(lastUserText(api.turns()[1] as never)).toContain("BAD in a.ts");
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  }, 150_000);
});

describe("the stop gate (AfterAgent)", () => {
  provedTest(
    GEMINI,
    ["stopGate"],
    "the stop is held while a check it was told about fails, at most agent.maxStopBlocks times",
    async () => {
      project = agentProject(
        "gemini",
        { agent: { maxStopBlocks: 2 }, callbacks: [LINT] },
        { "src/.keep": "" },
      );
      const p = project;
      expect(cpilot(["install", "gemini"], { cwd: p.dir }).code).toBe(0);
      api = await startFakeGemini([
        [write(p.path("src/a.ts"), "export const a = BAD;\n")] as never,
        [{ text: "done" }],
        [{ text: "done, really" }],
        [{ text: "giving up" }],
      ]);
      const run = await runGemini({ cwd: p.dir, prompt: "go", apiUrl: api.url });
      expect(run.code).toBe(0);
      expect(api.escapes()).toEqual([]);
      const after = api.turns().map((t) => lastUserText(t as never));
      expect(after[1]).toContain("BAD in src/a.ts");
      expect(after[2]).toContain(
        "cpilot: do not stop yet: this needs fixing first (reminder 1 of at most 2):",
      );
      expect(after[2]).toContain("BAD in src/a.ts");
      expect(after[3]).toContain("(reminder 2 of at most 2)");
      // the third answer is let through: no fifth turn
      expect(after).toHaveLength(4);
    },
    120_000,
  );
});

describe("cpilot run -- gemini", () => {
  provedTest(
    GEMINI,
    ["runWithHooks"],
    "installed: the hooks do the work, the run ends with a summary",
    async () => {
      const { p, run, api } = await runThroughCpilot(true, "b.ts");
      expect(api.escapes()).toEqual([]);
      expect(lastUserText(api.turns()[1] as never)).toContain("BAD in b.ts");
      expect(run.stderr).not.toContain("watching");
      expect(existsSync(p.path(".cpilot/last-results.md"))).toBe(false);
    },
    90_000,
  );

  provedTest(
    GEMINI,
    ["runWithoutHooks"],
    "not installed: a watcher checks the edit and writes .cpilot/last-results.md",
    async () => {
      const { p, run } = await runThroughCpilot(false, "c.ts");
      expect(run.stderr).toContain("`cpilot install gemini` sends them straight to the model");
      expect(run.stderr).toContain("cpilot: ✗ 'lint' failed on c.ts");
      expect(readFileSync(p.path(".cpilot/last-results.md"), "utf8")).toContain("BAD in c.ts");
      expect(existsSync(p.path(".gemini"))).toBe(false);
    },
    90_000,
  );
});
