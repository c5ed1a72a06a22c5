/**
 * The session that proves an agent's shell edits are seen (shared by the real-CLI tests of
 * the agents with a post-tool hook on their shell tool): one shell command writes a file a
 * blocking check fails on, a file a formatter rewrites, and `.env`; the model says "done"
 * (the stop is held), a second command fixes the file and removes `.env`, and the next
 * "done" is let through. A file the person left failing before the turn stays theirs.
 */
import { expect } from "bun:test";
import { readFileSync } from "node:fs";
import { type AgentProject, agentProject, FORMAT, LINT } from "../agents/gemini/_agent-project.ts";

export const WRITE_THROUGH_SHELL =
  "printf 'export const a = BAD;\\n' > src/a.ts && printf 'hello\\n' > src/note.fmt && printf 'TOKEN=abc123\\n' > .env";
export const FIX_THROUGH_SHELL = "printf 'export const a = 1;\\n' > src/a.ts && rm .env";

/** The project: the lint and the formatter, and the person's own failing file, uncommitted. */
export function shellEditsProject(agent: string): AgentProject {
  return agentProject(
    agent,
    { callbacks: [LINT, FORMAT] },
    { "src/.keep": "", "src/mine.ts": "export const m = BAD;\n" },
  );
}

/**
 * What the model was sent after each step (`after[i]`: the request after the i-th scripted
 * turn, the shell's output and the stop's reason included), and what the session left: the proof, the same for every agent.
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
