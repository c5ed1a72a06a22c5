/**
 * The real Codex CLI 0.169 against cpilot's hooks (`cpilot install codex --trust-project`),
 * its model scripted on 127.0.0.1: patches whose headers carry whitespace, a patch whose
 * context line trims to End Patch, a path that leaves the root through a link and `..`, and
 * heredoc patches sent through the shell tool (which Codex applies itself), and a path
 * whose tab Codex drops when it writes (`.e<TAB>nv`), must not write into .git/hooks, .env
 * or outside the root. Each was written before cpilot read patches as Codex does and
 * hooked the shell tool.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, symlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { codexCli } from "../agents/codex/_codex-cli.ts";
import { agentProject } from "../agents/gemini/_agent-project.ts";
import { e2eSessions } from "../support/e2e-sessions.ts";
import { afterLastTurn, type Step } from "../support/fake-openai.ts";

const sessions = e2eSessions(codexCli);

const P = (...lines: string[]) => ["*** Begin Patch", ...lines, "*** End Patch", ""].join("\n");
const tool = (input: string): Step => ({ customTool: "apply_patch", input });
const shell = (cmd: string): Step => ({ tool: "exec_command", args: { cmd } });

describe("real Codex CLI: patches cpilot once misread are refused", () => {
  test("whitespace headers, a fake End Patch, a link and .., and shell heredocs write nothing protected", async () => {
    const project = agentProject(
      "codex",
      { callbacks: [] },
      { "notes.md": "*** End Patch\n", "deep/a/b/.keep": "" },
    );
    symlinkSync(project.path("deep/a"), project.path("lnk"));
    const escapee = `cpilot-escapee-${Date.now()}.txt`;
    const attempts: { step: Step; target: string }[] = [
      {
        step: tool(P(" *** Add File: .git/hooks/pre-commit", "+#!/bin/sh")),
        target: ".git/hooks/pre-commit",
      },
      { step: tool(P("\u00a0*** Add File: .env", "+TOKEN=x")), target: ".env" },
      { step: tool(P("\t*** Add File: id_rsa", "+key")), target: "id_rsa" },
      // Codex drops a tab inside a path when it writes
      { step: tool(P("*** Add File: .env.pro\tduction", "+TOKEN=x")), target: ".env.production" },
      {
        step: tool(
          P(
            "*** Update File: notes.md",
            "@@",
            " *** End Patch",
            "+x",
            "*** Add File: .git/hooks/post-checkout",
            "+#!/bin/sh",
          ),
        ),
        target: ".git/hooks/post-checkout",
      },
      { step: tool(P(`*** Add File: lnk/../../${escapee}`, "+x")), target: `../${escapee}` },
      {
        step: shell(
          `cd .git && apply_patch <<'EOF'\n${P("*** Add File: hooks/pre-push", "+#!/bin/sh")}EOF\n`,
        ),
        target: ".git/hooks/pre-push",
      },
      {
        step: shell(`apply_patch <<EOF\n${P("*** Add File: .env.local", "+TOKEN=x")}EOF\n`),
        target: ".env.local",
      },
      {
        step: shell(
          `apply_patch <<"EOF"\n${P(" *** Add File: callbacks.config.json", "+{}")}EOF\n`,
        ),
        target: "callbacks.config.json",
      },
    ];
    const script = [...attempts.map((a) => [a.step]), [{ text: "done" }]];
    const s = await sessions.start(project, script, ["--trust-project"]);
    const before = readFileSync(project.path("callbacks.config.json"), "utf8");
    const run = await s.run("make the edits");
    expect(run.code).toBe(0);
    expect(s.api.escapes()).toEqual([]);
    for (const { target } of attempts.filter((a) => a.target !== "callbacks.config.json"))
      expect({ target, written: existsSync(join(project.dir, target)) }).toEqual({
        target,
        written: false,
      });
    expect(readFileSync(project.path("callbacks.config.json"), "utf8")).toBe(before);
    const turns = s.api.turns();
    attempts.forEach((_, i) => {
      const told = afterLastTurn(turns[i + 1] as never);
      expect({ i, refused: /PreToolUse hook|denied|blocked/i.test(told) }).toEqual({
        i,
        refused: true,
      });
    });
    expect(existsSync(join(dirname(project.dir), escapee))).toBe(false);
  }, 300_000);

  test("a plain patch and a plain shell heredoc patch still go through", async () => {
    const project = agentProject("codex", { callbacks: [] }, { "src/.keep": "" });
    mkdirSync(project.path("sub"));
    const script = [
      [tool(P("*** Add File: src/a.ts", "+export const a = 1;"))],
      [
        shell(
          `cd sub && apply_patch <<'EOF'\n${P("*** Add File: b.ts", "+export const b = 2;")}EOF\n`,
        ),
      ],
      [{ text: "done" }],
    ];
    const s = await sessions.start(project, script, ["--trust-project"]);
    const run = await s.run("make the edits");
    expect(run.code).toBe(0);
    expect(readFileSync(project.path("src/a.ts"), "utf8")).toBe("export const a = 1;\n");
    expect(readFileSync(project.path("sub/b.ts"), "utf8")).toBe("export const b = 2;\n");
  }, 300_000);
});
