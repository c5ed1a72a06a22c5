/**
 * The real OpenCode 1.18.33 with cpilot's plugin (`cpilot install opencode`), a model it
 * gives its apply_patch tool, scripted on 127.0.0.1: headers OpenCode reads by trimming the
 * path (no space or a tab after the colon, a form feed around it) must not write .env,
 * .git/hooks or cpilot's config. OpenCode wrote each before cpilot read patches as it does.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { agentProject } from "../agents/gemini/_agent-project.ts";
import { opencodeLauncher } from "../agents/opencode/_opencode-cli.ts";
import { e2eSessions } from "../support/e2e-sessions.ts";
import { afterLastTurn, type Step } from "../support/fake-openai.ts";

const sessions = e2eSessions(opencodeLauncher("gpt-5"));

const P = (...lines: string[]) => ["*** Begin Patch", ...lines, "*** End Patch"].join("\n");
const patch = (patchText: string): Step => ({ tool: "apply_patch", args: { patchText } });

describe("real OpenCode: patches cpilot once misread are refused", () => {
  test("no space, a tab, a form feed after the colon write nothing protected; a plain patch goes through", async () => {
    const project = agentProject("opencode", { callbacks: [] }, { "src/.keep": "" });
    const attempts = [
      { step: patch(P("*** Add File:.env", "+TOKEN=x")), target: ".env" },
      {
        step: patch(P("*** Add File:\t.git/hooks/pre-commit", "+#!/bin/sh")),
        target: ".git/hooks/pre-commit",
      },
      { step: patch(P("*** Add File: \f.env.local\f", "+TOKEN=x")), target: ".env.local" },
      {
        step: patch(
          P("*** Add File: src/ok.ts", "+1", "*** Add File:  callbacks.config.yaml", "+x: 1"),
        ),
        target: "callbacks.config.yaml",
      },
    ];
    const script = [
      ...attempts.map((a) => [a.step]),
      [patch(P("*** Add File: src/a.ts", "+export const a = 1;"))],
      [{ text: "done" }],
    ];
    const s = await sessions.start(project, script, []);
    const run = await s.run("make the edits");
    expect(run.code).toBe(0);
    expect(s.api.escapes()).toEqual([]);
    for (const { target } of attempts)
      expect({ target, written: existsSync(project.path(target)) }).toEqual({
        target,
        written: false,
      });
    expect(existsSync(project.path("src/ok.ts"))).toBe(false);
    const turns = s.api.turns();
    attempts.forEach((_, i) => {
      const told = afterLastTurn(turns[i + 1] as never);
      expect({ i, told: /Success/.test(told) }).toEqual({ i, told: false });
    });
    expect(readFileSync(project.path("src/a.ts"), "utf8")).toBe("export const a = 1;\n");
  }, 400_000);
});
