import { appendFileSync, readFileSync } from "node:fs";
import type { RunResult } from "../model/outcome.ts";

/** Set by `cpilot run -- <agent>`: every hook process appends one JSON line per finished run, for the summary. */
export const RUN_LOG_ENV = "CPILOT_RUN_LOG";

export type RunLogEntry = Pick<
  RunResult,
  "id" | "callback" | "files" | "status" | "summary" | "blocking" | "durationMs"
>;

export function appendRunLog(runs: readonly RunResult[], env = process.env): void {
  const path = env[RUN_LOG_ENV];
  if (!path || runs.length === 0) return;
  const lines = runs.map((r) => {
    const entry: RunLogEntry = {
      id: r.id,
      callback: r.callback,
      files: r.files,
      status: r.status,
      summary: r.summary,
      blocking: r.blocking,
      durationMs: r.durationMs,
    };
    return `${JSON.stringify(entry)}\n`;
  });
  try {
    // One write per call: O_APPEND keeps concurrent hook processes' lines whole.
    appendFileSync(path, lines.join(""));
  } catch {
    // the wrapper went away; the summary is a nicety
  }
}

export function readRunLog(path: string): RunLogEntry[] {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return [];
  }
  const entries: RunLogEntry[] = [];
  for (const line of text.split("\n")) {
    if (!line.startsWith("{")) continue;
    try {
      entries.push(JSON.parse(line) as RunLogEntry);
    } catch {
      // a torn line
    }
  }
  return entries;
}
