import type { Diagnostic } from "../model/diagnostic.ts";

/**
 * What one run of a check found on one content: enough to replay the run without running
 * it, and to judge later diagnostics new or old against it. Plain JSON, so a store may keep
 * it anywhere (a file under `.cpilot/`, a remote cache's artifact).
 */
export interface CheckRecord {
  /** The shape's version: a reader drops a record of another version. */
  readonly v: 1;
  /** The key it was stored under (see ./key.ts): a record read under another key is dropped. */
  readonly key: string;
  readonly callback: string;
  /** How the run ended; only finished runs are recorded. */
  readonly status: "passed" | "failed" | "silent";
  readonly exitCode: number | null;
  readonly durationMs: number;
  /** The exit in words, and the last lines of output, as the run printed them. */
  readonly summary: string;
  readonly tail: readonly string[];
  /** What the output said, parsed; no new-or-old marks (those depend on who asks). */
  readonly diagnostics: readonly Diagnostic[];
  /**
   * The files whose content this record speaks for, each with its content id (a git blob id):
   * a file listed here with no diagnostic was read and found clean. A run that stopped early
   * (a crate before the edited one failed) lists only what it reached.
   */
  readonly read: Readonly<Record<string, string>>;
  /** The run stopped before reaching every file it was given (see `read`). */
  readonly stoppedEarly: boolean;
  /** Files a fixer rewrote: such a record is never replayed, only judged against. */
  readonly changed: readonly string[];
  /** When it was recorded (ms since the epoch): a bounded store drops the oldest first. */
  readonly at: number;
}

/**
 * Where records live, by key. The local store keeps them under `.cpilot/`; a remote one (a
 * Turborepo-style artifact cache) can stand in front or behind it. Keys are lowercase hex;
 * a store that cannot answer says `undefined` (never throws), a put that fails is dropped:
 * a cache is a convenience, never a condition.
 */
export interface ResultStore {
  get(key: string): Promise<CheckRecord | undefined>;
  put(key: string, record: CheckRecord): Promise<void>;
}

/** A key's shape: what a store accepts (a key is a path segment and a URL segment). */
export const KEY_PATTERN = /^[0-9a-f]{16,128}$/;

/** The record in `value` (a parsed JSON read from any store) when it has the shape and `key`, else undefined. */
export function asCheckRecord(value: unknown, key: string): CheckRecord | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const r = value as Record<string, unknown>;
  if (r.v !== 1 || r.key !== key || typeof r.callback !== "string") return undefined;
  if (r.status !== "passed" && r.status !== "failed" && r.status !== "silent") return undefined;
  if (r.exitCode !== null && typeof r.exitCode !== "number") return undefined;
  if (typeof r.durationMs !== "number" || typeof r.summary !== "string") return undefined;
  if (!isStrings(r.tail) || !isStrings(r.changed) || typeof r.stoppedEarly !== "boolean")
    return undefined;
  if (typeof r.at !== "number" || !Array.isArray(r.diagnostics)) return undefined;
  if (!r.diagnostics.every(isDiagnostic)) return undefined;
  if (typeof r.read !== "object" || r.read === null || Array.isArray(r.read)) return undefined;
  if (!Object.values(r.read).every((id) => typeof id === "string")) return undefined;
  return value as CheckRecord;
}

function isStrings(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((s) => typeof s === "string");
}

function isDiagnostic(value: unknown): value is Diagnostic {
  if (typeof value !== "object" || value === null) return false;
  const d = value as Record<string, unknown>;
  return (
    typeof d.file === "string" &&
    typeof d.line === "number" &&
    typeof d.column === "number" &&
    (d.severity === "error" || d.severity === "warning" || d.severity === "info") &&
    typeof d.code === "string" &&
    typeof d.message === "string" &&
    typeof d.tool === "string"
  );
}
