// A callback's baseline on disk: a small JSON table of its files and their diagnostics'
// numbers as bytes read straight into a Float64Array, so no JSON of thousands of diagnostics.
//
//   0  u32 MAGIC ("cpbl"), in the writer's byte order: another order reads as no baseline
//   4  u32 VERSION
//   8  u32 bytes of the table
//  12  u32 diagnostics the table's files hold
//  16  u32 diagnostics in the entries (theirs, and runs no file holds any more)
//  20  u32 0
//  24  the table, JSON: per file, oldest seen first, 0 when known clean, else [first, count]
//      zero bytes up to a multiple of 8
//      f64 per diagnostic: the STRIDE numbers of FileEntries.e
//
// A save rewrites the table and appends the files it saw, leaving the others' entries in
// place: its cost follows what the run saw, not the baseline's size. Unused runs are
// dropped once they outweigh the used ones.
import { Buffer } from "node:buffer";

export const STRIDE = 4;

export interface FileEntries {
  readonly e: ArrayLike<number>;
}

const MAGIC = 0x6c627063; // "cpbl" read as a little-endian u32
/**
 * Bump it when a parser reads a message, code or severity differently: fingerprints are made
 * of them, and an older baseline's stale ones would make old diagnostics look new.
 */
const VERSION = 5;
const HEADER = 24;
const MIN_UNUSED = 1000;

const align8 = (n: number) => (n + 7) & ~7;
const CLEAN: FileEntries = { e: new Float64Array(0) };

function isIndex(n: unknown): n is number {
  return typeof n === "number" && Number.isSafeInteger(n) && n >= 0;
}

export class SavedFiles {
  constructor(
    /** Per file, oldest first: 0 known clean, [first, count] (checked on use). */
    readonly table: Record<string, unknown>,
    readonly entries: Float64Array,
    readonly live: number,
  ) {}

  /** Undefined when never seen (or saved unreadably). */
  get(file: string): FileEntries | undefined {
    if (!Object.hasOwn(this.table, file)) return undefined;
    const count = countOf(this.table[file], this.entries.length / STRIDE);
    if (count === 0) return CLEAN;
    if (count < 0) return undefined;
    const first = (this.table[file] as number[])[0] as number;
    return { e: this.entries.subarray(first * STRIDE, (first + count) * STRIDE) };
  }
}

export const NO_BASELINE = new SavedFiles({}, new Float64Array(0), 0);

function countOf(value: unknown, size: number): number {
  if (value === 0) return 0;
  if (!Array.isArray(value) || value.length !== 2) return -1;
  const [first, count] = value as unknown[];
  return isIndex(first) && isIndex(count) && count > 0 && first + count <= size ? count : -1;
}

function layout(
  bytes: Uint8Array,
): { tableLength: number; live: number; total: number; entriesAt: number } | null {
  if (bytes.byteLength < HEADER || bytes.byteOffset % 8 !== 0) return null;
  const head = new Uint32Array(bytes.buffer, bytes.byteOffset, HEADER / 4);
  if (head[0] !== MAGIC || head[1] !== VERSION) return null;
  const tableLength = head[2] as number;
  const live = head[3] as number;
  const total = head[4] as number;
  const entriesAt = align8(HEADER + tableLength);
  if (live > total || entriesAt + 8 * STRIDE * total !== bytes.byteLength) return null;
  return { tableLength, live, total, entriesAt };
}

/** A saved baseline, or null when the bytes are not a whole one of this version (read as none). The entries are a view, not a copy. */
export function decodeBaseline(bytes: Uint8Array): SavedFiles | null {
  const at = layout(bytes);
  if (at === null) return null;
  let table: unknown;
  try {
    const text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(
      bytes.subarray(HEADER, HEADER + at.tableLength),
    );
    table = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof table !== "object" || table === null || Array.isArray(table)) return null;
  const entries = new Float64Array(
    bytes.buffer,
    bytes.byteOffset + at.entriesAt,
    at.total * STRIDE,
  );
  return new SavedFiles(table as Record<string, unknown>, entries, at.live);
}

/**
 * Do saved bytes say, without decoding them, that each of `files` is known clean? A search of
 * the table for each `"<path>":0` member: inside a key every `"` is escaped and values hold
 * numbers only, so `{"` and `,"` start members alone.
 */
export function knownCleanInBytes(bytes: Uint8Array, files: readonly string[]): boolean {
  const at = layout(bytes);
  if (at === null) return false;
  const table = Buffer.from(bytes.buffer, bytes.byteOffset + HEADER, at.tableLength);
  for (const file of files) {
    const member = `${JSON.stringify(file)}:0`;
    let found = false;
    for (const start of ["{", ","])
      for (const end of [",", "}"])
        if (!found && table.indexOf(`${start}${member}${end}`, 0, "utf8") >= 0) found = true;
    if (!found) return false;
  }
  return true;
}

/**
 * The bytes of `now` with `seen` recorded last, and the files seen longest ago dropped past
 * `maxEntries`. In pieces written one after another: a dense run's entries are not copied.
 */
export function encodeWith(
  now: SavedFiles,
  seen: ReadonlyMap<string, FileEntries>,
  maxEntries: number,
): Uint8Array[] {
  const size = now.entries.length / STRIDE;
  // No prototype: a file named "__proto__" is a member like any other.
  const table: Record<string, unknown> = Object.assign(Object.create(null), now.table);
  let live = now.live;
  for (const file of seen.keys())
    if (Object.hasOwn(table, file)) {
      live -= Math.max(0, countOf(table[file], size));
      delete table[file];
    }
  const names = Object.keys(table);
  const mine = [...seen].filter(([file, { e }]) => !file.includes("\0") && e.length % STRIDE === 0);
  let added = 0;
  for (const [, { e }] of mine) added += e.length / STRIDE;
  let total = names.length + live + mine.length + added;
  let dropped = 0;
  for (; total > maxEntries && dropped < names.length; dropped++) {
    const name = names[dropped] as string;
    const count = Math.max(0, countOf(table[name], size));
    live -= count;
    total -= 1 + count;
    delete table[name];
  }
  while (total > maxEntries && mine.length > 0) {
    const [, { e }] = mine.shift() as [string, FileEntries];
    added -= e.length / STRIDE;
    total -= 1 + e.length / STRIDE;
  }
  const unused = size - live;
  const keptNames = names.slice(dropped);
  const base =
    unused >= Math.max(live + added, MIN_UNUSED) ? packedSize(now, table, keptNames) : -1;
  let kept: Float64Array = now.entries;
  if (base >= 0) {
    kept = new Float64Array(base * STRIDE);
    pack(now, table, keptNames, kept);
  }
  const pieces = [bytesOf(kept)];
  let at = kept.length / STRIDE;
  for (const [file, { e }] of mine) {
    const count = e.length / STRIDE;
    table[file] = count === 0 ? 0 : [at, count];
    if (count > 0) pieces.push(bytesOf(e instanceof Float64Array ? e : Float64Array.from(e)));
    at += count;
  }
  return [head(table, base < 0 ? live + added : base + added, at), ...pieces];
}

function bytesOf(numbers: Float64Array): Uint8Array {
  return new Uint8Array(numbers.buffer, numbers.byteOffset, numbers.byteLength);
}

function packedSize(
  now: SavedFiles,
  table: Record<string, unknown>,
  names: readonly string[],
): number {
  const size = now.entries.length / STRIDE;
  let total = 0;
  for (const name of names) {
    const count = countOf(table[name], size);
    if (count < 0)
      delete table[name]; // as if never seen
    else total += count;
  }
  return total;
}

function pack(
  now: SavedFiles,
  table: Record<string, unknown>,
  names: readonly string[],
  into: Float64Array,
): void {
  const size = now.entries.length / STRIDE;
  let at = 0;
  for (const name of names) {
    const value = table[name];
    if (value === 0 || value === undefined) continue; // clean, or dropped by packedSize
    const count = countOf(value, size);
    const first = (value as number[])[0] as number;
    into.set(now.entries.subarray(first * STRIDE, (first + count) * STRIDE), at * STRIDE);
    table[name] = [at, count];
    at += count;
  }
}

function head(table: Record<string, unknown>, live: number, total: number): Uint8Array {
  const text = new TextEncoder().encode(JSON.stringify(table));
  const bytes = new Uint8Array(align8(HEADER + text.length));
  new Uint32Array(bytes.buffer, 0, HEADER / 4).set([MAGIC, VERSION, text.length, live, total, 0]);
  bytes.set(text, HEADER);
  return bytes;
}

/** Pieces joined in memory of their own (offset 0, as a read gives them). */
export function joined(pieces: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const piece of pieces) length += piece.length;
  const bytes = new Uint8Array(length);
  let at = 0;
  for (const piece of pieces) {
    bytes.set(piece, at);
    at += piece.length;
  }
  return bytes;
}

export function encodeBaseline(files: ReadonlyMap<string, FileEntries>): Uint8Array {
  return joined(encodeWith(NO_BASELINE, files, Number.POSITIVE_INFINITY));
}
