import type { ProjectSnapshot } from "../cache/content.ts";
import {
  noteOutsideReads,
  type OutsideReads,
  stopNotingOutsideReads,
} from "../cache/outside-reads.ts";
import type { Stamp } from "../cache/stamps.ts";
import { type WholeSettingsInput, wholeSettings } from "../cache/whole-key.ts";
import { DURATION_MARK, writeWholeRecord } from "../cache/whole-record.ts";
import { foldersHolding, wholeEntries } from "../cache/whole-stamps.ts";
import type { ResolvedConfig } from "../config/resolve.ts";
import type { FileChange } from "../model/batch.ts";
import type { Outcome } from "../model/outcome.ts";
import { redirectStderr, writeErr } from "../platform/stdio.ts";
import { inOutputFolder } from "../project/not-own.ts";
import { formatDuration } from "../ui/style.ts";
import { mark } from "../util/trace.ts";

/** A `check --all` that may be kept whole (see check-whole-replay.ts): where, and its settings before it ran. */
export interface WholeStart {
  readonly slot: string;
  readonly settings: string;
  readonly input: WholeSettingsInput;
}

/** What a check kept as it ran, for its whole record. */
export interface WholeRecording {
  /** Run lines as printed. */
  readonly lines: string[];
  summary: string | null;
  readonly at: number;
  readonly files: readonly FileChange[];
  readonly reads: OutsideReads;
}

/**
 * Before the runs: a note of what the result keys read outside git, and of the stamp of each
 * folder the engine judges for a virtualenv's or another repository's marker.
 */
export function beginWholeRecording(files: readonly FileChange[]): WholeRecording {
  return { lines: [], summary: null, at: Date.now(), files, reads: noteOutsideReads() };
}

/** Print the summary and keep it for the record, its time marked. */
export function printKeptSummary(
  recording: WholeRecording,
  elapsedMs: number,
  print: () => void,
): void {
  let text = "";
  redirectStderr((chunk) => {
    text += chunk;
  });
  try {
    print();
  } finally {
    redirectStderr(null);
  }
  writeErr(text);
  const lines = text.split("\n").filter((l) => l !== "");
  const time = ` in ${formatDuration(elapsedMs)}`;
  const line = lines[0];
  if (lines.length !== 1 || line === undefined || !line.includes(time)) return;
  const at = line.lastIndexOf(time);
  recording.summary = `${line.slice(0, at)} in ${DURATION_MARK}${line.slice(at + time.length)}`;
}

export interface CheckFacts {
  readonly config: ResolvedConfig;
  readonly outcome: Outcome;
  readonly project: ProjectSnapshot | null;
  readonly aborted: boolean;
  readonly trouble: boolean;
  readonly nested: boolean;
  readonly failOnChange: boolean;
}

/**
 * Keep the check whole when its text is a function of what the record keys: every run
 * replayed from the cache and passed, with nothing else said; no callback whose result the
 * cache cannot vouch for; nothing read changed while it ran.
 */
export function finishWholeRecording(
  start: WholeStart,
  recording: WholeRecording,
  facts: CheckFacts,
): void {
  stopNotingOutsideReads();
  if (!keepable(facts)) return;
  const project = facts.project?.key() ?? null;
  if (project === null || facts.project?.flagged() !== false) return;
  if (wholeSettings(start.input) !== start.settings) return;
  const folders = judgedFolders(recording);
  if (folders === null) return;
  const root = facts.config.root;
  const entries = wholeEntries(root, recording.reads, folders);
  if (entries === null || recording.summary === null) return;
  writeWholeRecord(root, {
    v: 1,
    kind: "whole-check",
    slot: start.slot,
    settings: start.settings,
    project,
    at: recording.at,
    checkedAt: recording.at,
    lines: recording.lines,
    summary: recording.summary,
    ...entries,
  });
  mark("whole check recorded");
}

/**
 * The stamp of every folder that holds a file, as the engine judged it; null when one was
 * not judged, or a file lies in a dist/, build/ or out/ folder (the project's or not by what
 * git ignores, which is not followed here).
 */
function judgedFolders(recording: WholeRecording): Map<string, Stamp> | null {
  const paths = recording.files.map((f) => f.path);
  if (paths.some(inOutputFolder)) return null;
  const out = new Map<string, Stamp>();
  for (const folder of foldersHolding(paths)) {
    const stamp = recording.reads.stamped.get(folder);
    if (stamp === undefined) return null;
    out.set(folder, stamp);
  }
  return out;
}

function keepable(facts: CheckFacts): boolean {
  const { outcome, config } = facts;
  if (facts.aborted || facts.trouble || facts.nested || facts.failOnChange) return false;
  if (!outcome.ok || outcome.runs.length === 0) return false;
  if (outcome.resyncs.length > 0 || outcome.notes.length > 0) return false;
  if ((outcome.leftOut?.size ?? 0) > 0) return false;
  if (config.callbacks.some((c) => c.cache === false || typeof c.run === "function")) return false;
  return outcome.runs.every(
    (r) =>
      (r.status === "passed" || r.status === "silent") &&
      r.cached !== undefined &&
      r.blocking &&
      (r.diagnostics?.length ?? 0) === 0 &&
      r.unreached === undefined &&
      r.reachedAgain === undefined &&
      r.reachAgainOf === undefined,
  );
}
