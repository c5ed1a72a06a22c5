import type { Diagnostic } from "../model/diagnostic.ts";

/** What one run of a check found on one content: enough to replay it and judge later diagnostics. Plain JSON. */
export interface CheckRecord {
  /** A reader drops a record of another version. */
  readonly v: 1;
  /** A record read under another key is dropped. */
  readonly key: string;
  readonly callback: string;
  readonly status: "passed" | "failed" | "silent";
  readonly exitCode: number | null;
  readonly durationMs: number;
  readonly summary: string;
  readonly tail: readonly string[];
  /** No new-or-old marks: those depend on who asks. */
  readonly diagnostics: readonly Diagnostic[];
  /** A file listed with no diagnostic was found clean; a run that stopped early lists only what it reached. */
  readonly read: Readonly<Record<string, string>>;
  readonly stoppedEarly: boolean;
  /** Files a fixer rewrote: such a record is never replayed, only judged against. */
  readonly changed: readonly string[];
  readonly at: number;
}

/**
 * Where records live, by key. A store that cannot answer says `undefined` (never throws), a
 * put that fails is dropped: a cache is a convenience, never a condition.
 */
export interface ResultStore {
  get(key: string): Promise<CheckRecord | undefined>;
  put(key: string, record: CheckRecord): Promise<void>;
}

/** A key is a path segment and a URL segment. */
export const KEY_PATTERN = /^[0-9a-f]{16,128}$/;

export function asCheckRecord(value: unknown, key: string): CheckRecord | undefined {
  const head = asRecordHead(value, key);
  return head !== undefined && isReadMap(head.read) ? (head as CheckRecord) : undefined;
}

/** Every field but `read` checked: a reader that may never need `read` checks it when it does. */
export function asRecordHead(
  value: unknown,
  key: string,
): (Omit<CheckRecord, "read"> & { read?: unknown }) | undefined {
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
  return value as Omit<CheckRecord, "read">;
}

/** A record's `read`: file to content id. */
export function isReadMap(value: unknown): value is Readonly<Record<string, string>> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  for (const id of Object.values(value)) if (typeof id !== "string") return false;
  return true;
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
