/**
 * One scripted session that proves what an agent's hooks deliver, shared by the real-CLI
 * e2e tests: the model writes a file a blocking check fails on, a file a formatter
 * rewrites, and a file the gate refuses, then says "done". The fake records what the model
 * was sent after each step.
 */
import { existsSync, readFileSync } from "node:fs";
import {
  afterLastTurn,
  type FakeOpenAI,
  type Step,
  startFakeOpenAI,
} from "../../support/fake-openai.ts";
import { type AgentProject, agentProject, FORMAT, GATE, LINT } from "../gemini/_agent-project.ts";

export const CONFIG = { callbacks: [LINT, FORMAT], gate: GATE };

export interface SessionTexts {
  /** The first model request as text (the session-start context). */
  readonly first: string;
  /** What followed each scripted step: the BAD write, the formatter's file, the refused write. */
  readonly afterBad: string;
  readonly afterFormat: string;
  readonly afterRefused: string;
}

/** A project with the config, and a fake model scripted with `write(path, content)` steps. */
export async function scriptedSession(
  agent: string,
  write: (absPath: string, content: string) => Step,
): Promise<{ project: AgentProject; api: FakeOpenAI }> {
  const project = agentProject(agent, CONFIG, { "src/.keep": "", "locked/.keep": "" });
  const api = await startFakeOpenAI([
    [write(project.path("src/a.ts"), "export const a = BAD;\n")],
    [write(project.path("src/note.fmt"), "hello\n")],
    [write(project.path("locked/x.ts"), "x\n")],
    [{ text: "done" }],
  ]);
  return { project, api };
}

/** The texts the model received, once the agent ran (null when the loop did not get that far). */
export function sessionTexts(api: FakeOpenAI): SessionTexts | null {
  const turns = api.turns();
  if (turns.length < 4) return null;
  return {
    first: JSON.stringify(turns[0]?.body ?? {}),
    afterBad: afterLastTurn(turns[1] as never),
    afterFormat: afterLastTurn(turns[2] as never),
    afterRefused: afterLastTurn(turns[3] as never),
  };
}

/** What the session left on disk. */
export function sessionFiles(project: AgentProject): {
  bad: string | null;
  formatted: string | null;
  refusedExists: boolean;
} {
  const read = (p: string) =>
    existsSync(project.path(p)) ? readFileSync(project.path(p), "utf8") : null;
  return {
    bad: read("src/a.ts"),
    formatted: read("src/note.fmt"),
    refusedExists: existsSync(project.path("locked/x.ts")),
  };
}
