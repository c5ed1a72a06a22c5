import { mkdirSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { GateDecision, PendingWrite } from "../model/gate-types.ts";
import { stateDir } from "../util/state-dir.ts";
import { appendStateFile, readStateFile } from "../util/state-file.ts";
import { STATE, STATE_DIR, stateRelative } from "../util/state-layout.ts";

/** Relative to the root. */
export const GATE_LOG = stateRelative(STATE.gateLog);

/** File content is never logged. */
export interface GateLogEntry {
  time: string;
  tool: string;
  path: string;
  decision: "allow" | "deny";
  reason: string;
  source: string;
  agent: string | null;
  session: string | null;
  modified?: string;
  asked?: string;
}

const MAX_FIELD = 2000;
const clip = (s: string): string => (s.length > MAX_FIELD ? `${s.slice(0, MAX_FIELD)}…` : s);

export function logEntry(
  write: PendingWrite,
  decision: GateDecision,
  now = new Date(),
): GateLogEntry {
  const entry: GateLogEntry = {
    time: now.toISOString(),
    tool: clip(write.tool),
    path: clip(decision.relativePath ?? write.path),
    decision: decision.decision,
    reason: clip(decision.reason),
    source: clip(decision.source),
    agent: write.agent ?? null,
    session: write.session ?? null,
  };
  if (decision.modified !== undefined) entry.modified = clip(decision.modified.summary);
  if (decision.asked !== undefined) entry.asked = decision.asked;
  return entry;
}

/** One write(2) on an O_APPEND descriptor, so lines from concurrent processes never interleave. */
export function appendGateLog(file: string, entry: GateLogEntry): void {
  // the default log is state: never through a .cpilot that is a symlink (see state-dir.ts)
  if (basename(dirname(file)) === STATE_DIR) stateDir(dirname(dirname(file)));
  else mkdirSync(dirname(file), { recursive: true });
  appendStateFile(file, `${JSON.stringify(entry)}\n`, 0o600);
}

/** Oldest first; lines that do not parse are skipped. */
export function readGateLog(root: string): GateLogEntry[] {
  // the newest 16 MB: the log is never pruned, and `gate log` shows the end
  const text = readStateFile(join(root, GATE_LOG), 16 * 1024 * 1024);
  if (text === null) return [];
  const entries: GateLogEntry[] = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    try {
      entries.push(JSON.parse(line) as GateLogEntry);
    } catch {
      // a torn or foreign line: skip it
    }
  }
  return entries;
}
