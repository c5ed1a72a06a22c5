import { join } from "node:path";

// cpilot's state folder in a project and every name under it, spelled here only. Code that
// makes or reads a path under it takes the name from here (and makes folders through
// ./state-dir.ts, which refuses a `.cpilot` that is a symlink).

/** The state folder, relative to the project root (also what `cpilot init` adds to .gitignore). */
export const STATE_DIR = ".cpilot";

/** The folders and files under `.cpilot/`. */
export const STATE = {
  /** Run logs and finished-run records (`cpilot logs`), pruned to `keepLogs`. */
  runs: "runs",
  /** Records of the runs alive now (`cpilot ps`, `cpilot stop`). */
  running: "running",
  /** Locks between cpilot processes that run the same callback. */
  locks: "locks",
  /** Per agent session: what the Stop check and the batch ledger remember. */
  sessions: "sessions",
  /** Under a session's folder: results kept for its next reply. */
  sessionResults: "results",
  /** Per agent session: notices waiting for its next hook or MCP call. */
  inbox: "inbox",
  /** Work handed to background runs. */
  background: "background",
  /** Short-lived files (resync markers, script inputs). */
  tmp: "tmp",
  /** Caches of cpilot's own. */
  cache: "cache",
  /** Under cache: configs that validated, by content. */
  validConfigs: "valid-configs",
  /** Diagnostics baselines, one file per callback. */
  baseline: "baseline",
  /** Trigger fires per agent session (the folder keeps its first name, "hooks"). */
  triggerBudget: ["hooks", "budget"],
  /** Callbacks turned on or off for this project (`cpilot on/off`). */
  toggles: "state.json",
  /** The gate's decisions. */
  gateLog: "gate.log.jsonl",
  /** The gate's plugins, by default. */
  gatePlugins: "gate-plugins",
  /** `cpilot watch` and `cpilot run -- <agent>` without hooks: the last batch's results. */
  lastResults: "last-results.md",
  /** Claude Code: the hook event that answers a batch. */
  claudeBatchEvent: "claude-batch-event",
} as const;

/** `.cpilot/<parts...>` relative to the project root, "/" between: for defaults and messages. */
export function stateRelative(...parts: string[]): string {
  return [STATE_DIR, ...parts].join("/");
}

/** True for a project-relative path ("/" separated) inside `.cpilot/`. */
export function isStatePath(relative: string): boolean {
  return relative.startsWith(STATE_PREFIX);
}

/** What every path inside `.cpilot/` begins with: made once, for checks on whole listings. */
export const STATE_PREFIX = `${STATE_DIR}/`;

/** `<root>/.cpilot/<parts...>`: the path only (./state-dir.ts makes folders safely). */
export function statePath(root: string, ...parts: string[]): string {
  return join(root, STATE_DIR, ...parts);
}

/** A run's record, `<root>/.cpilot/runs/<id>.json`, beside its log. */
export function runRecordPath(root: string, runId: string): string {
  return statePath(root, STATE.runs, `${runId}.json`);
}
