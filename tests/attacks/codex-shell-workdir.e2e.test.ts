/**
 * The real Codex CLI against cpilot's hooks: a shell-tool heredoc patch applied from
 * another folder than the session's, named by the tool call's `workdir`, by a `cd` through
 * a symlink into `.git`, or by `cd ..`, must not write into .git/hooks or outside the root.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, symlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { codexCli } from "../agents/codex/_codex-cli.ts";
import { agentProject } from "../agents/gemini/_agent-project.ts";
import { e2eSessions } from "../support/e2e-sessions.ts";
import type { Step } from "../support/fake-openai.ts";

const sessions = e2eSessions(codexCli);

const P = (...lines: string[]) => ["*** Begin Patch", ...lines, "*** End Patch", ""].join("\n");
const heredoc = (body: string, cd?: string) =>
  `${cd === undefined ? "" : `cd ${cd} && `}apply_patch <<'EOF'\n${body}EOF\n`;

describe("real Codex CLI: shell patches applied from another folder", () => {
  test("workdir, a cd through a link into .git, and cd .. write nothing protected", async () => {
    const project = agentProject("codex", { callbacks: [] }, { "sub/.keep": "" });
    symlinkSync(project.path(".git"), project.path("gitlink"));
    const escapee = `cpilot-escapee-${Date.now()}.txt`;
    const attempts: { step: Step; target: string }[] = [
      {
        step: {
          tool: "exec_command",
          args: { cmd: heredoc(P("*** Add File: hooks/pre-push", "+#!/bin/sh")), workdir: ".git" },
        },
        target: ".git/hooks/pre-push",
      },
      {
        step: {
          tool: "exec_command",
          args: {
            cmd: heredoc(P("*** Add File: pre-commit", "+#!/bin/sh")),
            workdir: join(project.dir, ".git/hooks"),
          },
        },
        target: ".git/hooks/pre-commit",
      },
      {
        step: {
          tool: "exec_command",
          args: { cmd: heredoc(P("*** Add File: hooks/post-checkout", "+#!/bin/sh"), "gitlink") },
        },
        target: ".git/hooks/post-checkout",
      },
      {
        step: {
          tool: "exec_command",
          args: { cmd: heredoc(P(`*** Add File: ${escapee}`, "+x"), "..") },
        },
        target: `../${escapee}`,
      },
    ];
    const control: Step = {
      tool: "exec_command",
      args: { cmd: heredoc(P("*** Add File: ok.txt", "+ok")), workdir: "sub" },
    };
    const script = [...attempts.map((a) => [a.step]), [control], [{ text: "done" }]];
    const s = await sessions.start(project, script, ["--trust-project"]);
    const run = await s.run("make the edits");
    expect(run.code).toBe(0);
    for (const { target } of attempts)
      expect({ target, written: existsSync(join(project.dir, target)) }).toEqual({
        target,
        written: false,
      });
    expect(existsSync(join(dirname(project.dir), escapee))).toBe(false);
    // The same shell patch from an ordinary folder is applied there: Codex did run them.
    expect(existsSync(project.path("sub/ok.txt"))).toBe(true);
  }, 300_000);
});
