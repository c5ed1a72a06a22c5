import { join } from "node:path";
import { writeFileAtomic } from "../util/atomic-write.ts";
import { readStateBytes } from "../util/state-file.ts";
import { existingGitCacheDir, madeGitCacheDir } from "./git-cache-dir.ts";
import { KEY_PATTERN } from "./store.ts";

/** Where the summary's time goes in {@link WholeRecord.summary}. */
export const DURATION_MARK = "\u0000duration\u0000";

/** A root-relative file a key read outside git: its stamp ("" when absent), content id, and newest time. */
export type FileEntry = readonly [path: string, stamp: string, id: string, newest: number];
/** A root-relative folder: its stamp, newest time, and the tool configs it held when a key listed it (null when none did). */
export type FolderEntry = readonly [
  folder: string,
  stamp: string,
  newest: number,
  names: readonly string[] | null,
];
/** A program a key stamped: the word, the folder it ran from, the found file's stamp ("" when none). */
export type ProgramEntry = readonly [word: string, cwd: string, found: string];

/**
 * A whole `check --all` whose every run was replayed and passed: its text, and what must be
 * unchanged for that text to be the check's again. Kept beside the result records, in the
 * git folder (see git-cache-dir.ts), under its slot (see whole-key.ts).
 */
export interface WholeRecord {
  readonly v: 1;
  readonly kind: "whole-check";
  readonly slot: string;
  /** wholeSettings() when the check ran. */
  readonly settings: string;
  /** The project's content key (ProjectSnapshot.key()) the runs were keyed by. */
  readonly project: string;
  /** When the check ran. */
  readonly at: number;
  /** Stamps newer than this less SETTLED_MS cannot vouch alone: their content is looked at again. */
  readonly checkedAt: number;
  /** The lines printed for the runs, as printed. */
  readonly lines: readonly string[];
  /** The summary line, its time as DURATION_MARK. */
  readonly summary: string;
  readonly files: readonly FileEntry[];
  readonly folders: readonly FolderEntry[];
  readonly programs: readonly ProgramEntry[];
}

const RESULTS = "results";
const MAX_BYTES = 32 * 1024 * 1024;

/** The record kept for `slot`, or null (none, torn, another version, another slot). Never throws. */
export function readWholeRecord(root: string, slot: string): WholeRecord | null {
  const dir = existingGitCacheDir(root, RESULTS);
  if (dir === null || !KEY_PATTERN.test(slot)) return null;
  const bytes = readStateBytes(join(dir, `${slot}.json`), MAX_BYTES);
  if (bytes === null) return null;
  try {
    const value: unknown = JSON.parse(new TextDecoder().decode(bytes));
    return isWholeRecord(value, slot) ? value : null;
  } catch {
    return null;
  }
}

/** Keep `record` (best effort: a record not kept is a full check next time). */
export function writeWholeRecord(root: string, record: WholeRecord): boolean {
  if (!KEY_PATTERN.test(record.slot)) return false;
  try {
    const dir = madeGitCacheDir(root, RESULTS);
    writeFileAtomic(join(dir, `${record.slot}.json`), JSON.stringify(record), { durable: false });
    return true;
  } catch {
    return false;
  }
}

function isWholeRecord(value: unknown, slot: string): value is WholeRecord {
  if (typeof value !== "object" || value === null) return false;
  const r = value as Record<string, unknown>;
  return (
    r.v === 1 &&
    r.kind === "whole-check" &&
    r.slot === slot &&
    typeof r.settings === "string" &&
    typeof r.project === "string" &&
    typeof r.at === "number" &&
    typeof r.checkedAt === "number" &&
    isStrings(r.lines) &&
    typeof r.summary === "string" &&
    r.summary.includes(DURATION_MARK) &&
    // the entries' shapes are checked as they are used (see whole-stamps.ts): one pass, not two
    Array.isArray(r.files) &&
    Array.isArray(r.folders) &&
    Array.isArray(r.programs)
  );
}

export function isStrings(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((s) => typeof s === "string");
}
