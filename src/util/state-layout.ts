import { join } from "node:path";

// cpilot's state folder and every name under it, spelled here only (folders are made through
// ./state-dir.ts, which refuses a symlink).

export const STATE_DIR = ".cpilot";

export const STATE = {
  /** Run logs and finished-run records, pruned to `keepLogs`. */
  runs: "runs",
  running: "running",
  locks: "locks",
  sessions: "sessions",
  /** Under a session's folder: results kept for its next reply. */
  sessionResults: "results",
  inbox: "inbox",
  background: "background",
  tmp: "tmp",
  cache: "cache",
  validConfigs: "valid-configs",
  baseline: "baseline",
  /** The folder keeps its first name, "hooks". */
  triggerBudget: ["hooks", "budget"],
  toggles: "state.json",
  gateLog: "gate.log.jsonl",
  gatePlugins: "gate-plugins",
  lastResults: "last-results.md",
  /** Claude Code: the hook event that answers a batch. */
  claudeBatchEvent: "claude-batch-event",
} as const;

export function stateRelative(...parts: string[]): string {
  return [STATE_DIR, ...parts].join("/");
}

export function isStatePath(relative: string): boolean {
  return relative.startsWith(STATE_PREFIX);
}

export const STATE_PREFIX = `${STATE_DIR}/`;

/** The path only: ./state-dir.ts makes folders safely. */
export function statePath(root: string, ...parts: string[]): string {
  return join(root, STATE_DIR, ...parts);
}

export function runRecordPath(root: string, runId: string): string {
  return statePath(root, STATE.runs, `${runId}.json`);
}
