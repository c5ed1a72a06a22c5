/**
 * Scripted sessions that prove an agent's shell edits are seen (shared by the real-CLI tests
 * of the agents with a post-tool hook on their shell tool): the model writes files through
 * its shell tool (no edit tool), and cpilot finds them by comparing the project's files with
 * the turn's start, checks them like an edit, tells the formatter's rewrite and holds the
 * stop. A file the person left failing before the turn stays theirs.
 */
import { expect } from "bun:test";
import { readFileSync } from "node:fs";
import { type AgentProject, agentProject, FORMAT, LINT } from "../agents/gemini/_agent-project.ts";
import type { e2eSessions } from "./e2e-sessions.ts";
import { afterLastTurn, type Step } from "./fake-openai.ts";

/** How the model runs a shell command in this agent's tools. */
export type ShellStep = (command: string) => Step;

type Sessions = ReturnType<typeof e2eSessions>;

export const WRITE_THROUGH_SHELL =
  "printf 'export const a = BAD;\\n' > src/a.ts && printf 'hello\\n' > src/note.fmt && printf 'TOKEN=abc123\\n' > .env";
export const FIX_THROUGH_SHELL = "printf 'export const a = 1;\\n' > src/a.ts && rm .env";

/** The session of `expectShellEditsSeen`: write, "done" (held), fix, "fixed" (let through). */
export const shellEditsScript = <S>(shell: (command: string) => S): (S | { text: string })[][] => [
  [shell(WRITE_THROUGH_SHELL)],
  [{ text: "done" }],
  [shell(FIX_THROUGH_SHELL)],
  [{ text: "fixed" }],
];

/** The project: the lint and the formatter, and the person's own failing file, uncommitted. */
export function shellEditsProject(agent: string): AgentProject {
  return agentProject(
    agent,
    { agent: { maxStopBlocks: 2 }, callbacks: [LINT, FORMAT] },
    { "src/.keep": "", "src/mine.ts": "export const mine = BAD;\n" },
  );
}

/**
 * One session of `script` in a `shellEditsProject`, with the agent's launcher: what the
 * model was sent after each step (`after[i]`: the request after the i-th scripted turn).
 */
export async function playShellSession(
  sessions: Sessions,
  agent: string,
  script: Step[][],
  install: string[],
) {
  const project = shellEditsProject(agent);
  const s = await sessions.start(project, script, install);
  const run = await s.run("do the task");
  expect(s.api.escapes().map((r) => r.path)).toEqual([]);
  const turns = s.api.turns();
  return { run, project, turns, after: turns.map((t) => afterLastTurn(t as never)) };
}

/**
 * What the model was sent after each step of `shellEditsScript` (the shell's output and the
 * stop's reason included), and what the session left: the proof, the same for every agent.
 */
export function expectShellEditsSeen(project: AgentProject, after: readonly string[]): void {
  const [, afterWrite = "", afterDone = "", afterFix = ""] = after;
  // the check's failure, the files named, the formatter's rewrite told, .env reported
  expect(afterWrite).toContain("BAD in src/a.ts");
  expect(afterWrite).toContain("files your command changed");
  expect(afterWrite).toContain("src/note.fmt");
  expect(afterWrite).toContain("HELLO");
  expect(afterWrite).toContain("a protected file was changed through the shell: .env");
  // a secret's bytes are not repeated by cpilot (the agent's CLI may echo the command)
  expect(afterWrite.slice(afterWrite.indexOf("cpilot:"))).not.toContain("abc123");
  expect(readFileSync(project.path("src/note.fmt"), "utf8")).toBe("HELLO\n");
  // the stop is held by both
  expect(afterDone).toContain("do not stop yet");
  expect(afterDone).toContain("BAD in src/a.ts");
  expect(afterDone).toContain("protected file was changed through the shell: .env");
  expect(afterFix).not.toContain("BAD in src/a.ts");
  // the person's file, failing before the turn, is never the agent's
  // (the first request may list the project's files)
  for (const text of after.slice(1)) expect(text).not.toContain("mine.ts");
  // the model's "fixed" was let through: no request after it
  expect(after).toHaveLength(4);
}

/**
 * A lint error and a formatter's file written through the shell: the failure and the
 * rewrite reach the model in that call's result, the stop is held until the shell fixes
 * the file (in place, with sed), and the person's own failing file is never counted.
 */
export async function lintAndFormatThroughShell(
  sessions: Sessions,
  agent: string,
  shell: ShellStep,
  install: string[],
) {
  const { run, project, turns, after } = await playShellSession(
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
  const { run, turns, after } = await playShellSession(
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
