/**
 * Shell edits with a real agent CLI against the scripted model: the model writes files
 * through its shell tool (no edit tool), and cpilot finds them by comparing the project's
 * files with the turn's start, checks them like an edit, tells the formatter's rewrite and
 * holds the stop. Called by each agent's e2e file with its launcher's sessions.
 */

import { expect } from "bun:test";
import { readFileSync } from "node:fs";
import { agentProject, FORMAT, LINT } from "../agents/gemini/_agent-project.ts";
import type { e2eSessions } from "./e2e-sessions.ts";
import { afterLastTurn, type Step } from "./fake-openai.ts";

/** How the model runs a shell command in this agent's tools. */
export type ShellStep = (command: string) => Step;

type Sessions = ReturnType<typeof e2eSessions>;

async function play(sessions: Sessions, agent: string, script: Step[][], install: string[]) {
  const project = agentProject(
    agent,
    { agent: { maxStopBlocks: 2 }, callbacks: [LINT, FORMAT] },
    // The person's own unfinished file, there before the turn: it stays theirs.
    { "src/.keep": "", "src/mine.ts": "export const mine = BAD;\n" },
  );
  const s = await sessions.start(project, script, install);
  const run = await s.run("do the task");
  expect(s.api.escapes().map((r) => r.path)).toEqual([]);
  const turns = s.api.turns();
  return { run, project, turns, after: turns.map((t) => afterLastTurn(t as never)) };
}

/**
 * A lint error and a formatter's file written through the shell: the failure and the
 * rewrite reach the model in that call's result, the stop is held until the shell fixes
 * the file, and the person's own failing file is never counted.
 */
export async function lintAndFormatThroughShell(
  sessions: Sessions,
  agent: string,
  shell: ShellStep,
  install: string[],
) {
  const { run, project, turns, after } = await play(
    sessions,
    agent,
    [
      [shell("printf 'export const a = BAD;\\n' > src/a.ts && printf 'hello\\n' > src/x.fmt")],
      [{ text: "done" }],
      [shell("sed -i 's/BAD/1/' src/a.ts")],
      [{ text: "fixed" }],
    ],
    install,
  );
  expect(run.code).toBe(0);
  expect(after[1]).toContain("files your command changed: src/a.ts, src/x.fmt");
  expect(after[1]).toContain("BAD in src/a.ts");
  expect(after[1]).toContain("HELLO");
  expect(readFileSync(project.path("src/x.fmt"), "utf8")).toBe("HELLO\n");
  expect(after[2]).toContain("cpilot: do not stop yet");
  expect(after[2]).toContain("BAD in src/a.ts");
  expect(after.join("\n")).not.toContain("mine.ts");
  // the fix through sed is checked and passes: the next stop is let through
  expect(after[3]).toContain("files your command changed: src/a.ts");
  expect(after[3]).not.toContain("BAD in src/a.ts");
  expect(turns).toHaveLength(4);
}

/** `.env` written through the shell: reported as a protected file changed, holds the stop until removed. */
export async function protectedThroughShell(
  sessions: Sessions,
  agent: string,
  shell: ShellStep,
  install: string[],
) {
  const { run, turns, after } = await play(
    sessions,
    agent,
    [
      [shell("echo 'TOKEN=abc123' > .env")],
      [{ text: "done" }],
      [shell("rm .env")],
      [{ text: "removed" }],
    ],
    install,
  );
  expect(run.code).toBe(0);
  expect(after[1]).toContain("a protected file was changed through the shell: .env");
  expect(after[1]).toContain("must be reverted: delete it");
  expect(after.join("\n")).not.toContain("abc123"); // a secret's bytes are not repeated
  expect(after[2]).toContain("cpilot: do not stop yet");
  expect(after[2]).toContain("protected file was changed through the shell: .env");
  expect(turns).toHaveLength(4);
}
