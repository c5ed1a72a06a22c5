import type { Diagnostic } from "../../model/diagnostic.ts";
import { crc32 } from "../../platform/crc32.ts";
import { type FileEntries, STRIDE } from "./_binary.ts";
import { keyHead, lineHash } from "./_source-lines.ts";

/** Ends a record that may lack some of what the check would find: a key no CRC-32 has. */
const INCOMPLETE_MARK = [-1, -1, -1, 0] as const;

export function fingerprint(d: Diagnostic): number {
  return crc32(d.message, keyHead(d.tool, d.severity, d.code));
}

export function textOf(lines: readonly string[] | null, line: number): number {
  return lines !== null && line > 0 && line <= lines.length ? lineHash(lines[line - 1]) : -1;
}

export function makeRecord(
  ds: readonly Diagnostic[],
  lines: readonly string[] | null,
  complete: boolean,
): FileEntries {
  const e = new Float64Array((ds.length + (complete ? 0 : 1)) * STRIDE);
  let at = 0;
  for (const d of ds) {
    e[at++] = fingerprint(d);
    e[at++] = d.line;
    e[at++] = textOf(lines, d.line);
    e[at++] = 0;
  }
  if (!complete) e.set(INCOMPLETE_MARK, at);
  return { e };
}

export function isIncomplete(record: FileEntries): boolean {
  const e = record.e;
  return e.length >= STRIDE && e[e.length - STRIDE] === -1;
}

export function sameRecord(a: FileEntries, b: FileEntries): boolean {
  if (a.e.length !== b.e.length) return false;
  for (let i = 0; i < a.e.length; i++) if (a.e[i] !== b.e[i]) return false;
  return true;
}

/**
 * Finds diagnostics in a record, each entry used once (two equal errors before answer for
 * two now, not three): same fingerprint on the same line text (lines above may have moved),
 * or on the same line where the text is unknown.
 */
export class RecordMatcher {
  private readonly used: Uint8Array;
  private readonly byKey = new Map<number, number[]>();
  private readonly start = new Map<number, number>();

  constructor(private readonly record: FileEntries) {
    const n = Math.floor(record.e.length / STRIDE);
    this.used = new Uint8Array(n);
    for (let j = 0; j < n; j++) {
      const key = record.e[j * STRIDE] as number;
      if (key === -1) continue;
      const list = this.byKey.get(key);
      if (list === undefined) this.byKey.set(key, [j]);
      else list.push(j);
    }
  }

  /** Nearest line first; false when none. */
  take(key: number, line: number, text: number): boolean {
    const e = this.record.e;
    let best = -1;
    let bestDistance = Number.POSITIVE_INFINITY;
    const list = this.byKey.get(key) ?? [];
    let from = this.start.get(key) ?? 0;
    while (from < list.length && this.used[list[from] as number]) from++;
    this.start.set(key, from);
    for (let k = from; k < list.length; k++) {
      const j = list[k] as number;
      if (this.used[j]) continue;
      const oldLine = e[j * STRIDE + 1] as number;
      const oldText = e[j * STRIDE + 2] as number;
      if (text !== -1 && oldText !== -1 ? oldText !== text : oldLine !== line) continue;
      const distance = Math.abs(oldLine - line);
      if (distance < bestDistance) {
        best = j;
        bestDistance = distance;
        if (distance === 0) break;
      }
    }
    if (best < 0) return false;
    this.used[best] = 1;
    return true;
  }
}

/** A content id (40 or 64 hex digits) as a record. */
export function idRecord(id: string): FileEntries {
  const n = Math.ceil(id.length / 8);
  const e = new Float64Array(Math.ceil((n + 1) / STRIDE) * STRIDE);
  e[0] = id.length;
  for (let i = 0; i < n; i++) e[i + 1] = Number.parseInt(id.slice(i * 8, i * 8 + 8), 16);
  return { e };
}

export function idOf(record: FileEntries | undefined): string | undefined {
  if (record === undefined || record.e.length < STRIDE) return undefined;
  const length = record.e[0] as number;
  if (length !== 40 && length !== 64) return undefined;
  let id = "";
  for (let i = 0; i < length / 8; i++)
    id += ((record.e[i + 1] as number) >>> 0).toString(16).padStart(8, "0");
  return id;
}
