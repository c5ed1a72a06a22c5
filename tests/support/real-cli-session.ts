/**
 * One scripted session that proves what an agent's hooks deliver, shared by the real-CLI
 * e2e tests: the model writes a file a blocking check fails on, a file a formatter
 * rewrites, and a file the gate refuses, then says "done". The fake records what the model
 * was sent after each step.
 */
import { existsSync, readFileSync } from "node:fs";
import {
  type AgentProject,
  agentProject,
  FORMAT,
  GATE,
  LINT,
} from "../agents/gemini/_agent-project.ts";
import { afterLastTurn, type FakeOpenAI, type Step } from "./fake-openai.ts";

/**
 * The session ends with the failing file in place, so the stop gate holds it: once is enough
 * here (its limits are proven by `stopGateHeld`), and each held stop is one more model turn.
 */
export const CONFIG = { agent: { maxStopBlocks: 1 }, callbacks: [LINT, FORMAT], gate: GATE };

export interface SessionTexts {
  /** The first model request as text (the session-start context). */
  readonly first: string;
  /** What followed each scripted step: the BAD write, the formatter's file, the refused write. */
  readonly afterBad: string;
  readonly afterFormat: string;
  readonly afterRefused: string;
}

/**
 * A project with the config, and the model's script of `write(path, content)` steps. With
 * `short`, for `cpilot run -- <agent>` without hooks: one write a check fails on, then
 * "done", so the watcher's last batch (.cpilot/last-results.md) is that write's.
 */
export function scriptedProject(
  agent: string,
  write: (absPath: string, content: string) => Step,
  short = false,
): { project: AgentProject; script: Step[][] } {
  const bad = "export const a = BAD;\n";
  if (short) {
    const project = agentProject(agent, CONFIG, { "src/.keep": "" });
    return { project, script: [[write(project.path("src/a.ts"), bad)], [{ text: "done" }]] };
  }
  const project = agentProject(agent, CONFIG, { "src/.keep": "", "locked/.keep": "" });
  const script = [
    [write(project.path("src/a.ts"), bad)],
    [write(project.path("src/note.fmt"), "hello\n")],
    [write(project.path("locked/x.ts"), "x\n")],
    [{ text: "done" }],
  ];
  return { project, script };
}

/**
 * The texts the model received, once the agent ran: null when the loop did not reach the
 * first step's answer; a step the session did not get to (or did not script) is "".
 */
export function sessionTexts(api: FakeOpenAI): SessionTexts | null {
  const turns = api.turns();
  if (turns.length < 2) return null;
  const after = (i: number) => (turns[i] === undefined ? "" : afterLastTurn(turns[i] as never));
  return {
    first: JSON.stringify(turns[0]?.body ?? {}),
    afterBad: after(1),
    afterFormat: after(2),
    afterRefused: after(3),
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
