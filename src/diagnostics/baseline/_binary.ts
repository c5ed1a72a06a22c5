// A callback's baseline on disk, as bytes read straight into typed arrays: no JSON.parse of
// ~140 KB (5,000 diagnostics, ~0.6 ms in a fresh hook process) nor JSON.stringify to save it.
//
//   0  u32 MAGIC ("cpbl"), in the writer's byte order: another order reads as no baseline
//   4  u32 VERSION
//   8  u32 number of files
//  12  u32 bytes of names
//  16  u32 number of diagnostics
//  20  u32 0
//  24  u32 per file: its number of diagnostics, in the files' order (oldest seen first)
//      names, UTF-8: per file "\0" + "c" (clean) or "d" (has diagnostics) + its path; then "\0"
//      zero bytes up to a multiple of 8
//      f64 per diagnostic: the STRIDE numbers of FileEntries.e, file after file
//
// A path never holds "\0", so `\0c<path>\0` is found in the names only as that file known
// clean: a run over a few files asks that of the bytes without decoding the rest.
import { Buffer } from "node:buffer";

/** Numbers per diagnostic (see FileEntries in ./store.ts). */
export const STRIDE = 4;

/** One file's diagnostics as numbers, STRIDE per diagnostic (see ./store.ts). */
export interface FileEntries {
  readonly e: ArrayLike<number>;
}

const MAGIC = 0x6c627063; // "cpbl" read as a little-endian u32
const VERSION = 3;
const HEADER = 24;

const align8 = (n: number) => (n + 7) & ~7;

/** The bytes that hold `files` (in their order); a path holding "\0" is left out. */
export function encodeBaseline(files: ReadonlyMap<string, FileEntries>): Uint8Array {
  const kept: [string, ArrayLike<number>][] = [];
  let names = "";
  let total = 0;
  for (const [file, { e }] of files) {
    if (file.includes("\0") || e.length % STRIDE !== 0) continue;
    kept.push([file, e]);
    names += `\0${e.length === 0 ? "c" : "d"}${file}`;
    total += e.length;
  }
  const nameBytes = new TextEncoder().encode(`${names}\0`);
  const namesAt = HEADER + 4 * kept.length;
  const entriesAt = align8(namesAt + nameBytes.length);
  const buffer = new ArrayBuffer(entriesAt + 8 * total);
  new Uint32Array(buffer, 0, HEADER / 4).set([
    MAGIC,
    VERSION,
    kept.length,
    nameBytes.length,
    total / STRIDE,
    0,
  ]);
  const counts = new Uint32Array(buffer, HEADER, kept.length);
  new Uint8Array(buffer, namesAt, nameBytes.length).set(nameBytes);
  const entries = new Float64Array(buffer, entriesAt, total);
  let at = 0;
  for (let i = 0; i < kept.length; i++) {
    const e = (kept[i] as [string, ArrayLike<number>])[1];
    counts[i] = e.length / STRIDE;
    entries.set(e, at);
    at += e.length;
  }
  return new Uint8Array(buffer);
}

interface Layout {
  readonly files: number;
  readonly namesAt: number;
  readonly namesLength: number;
  /** Numbers of all diagnostics, STRIDE each. */
  readonly total: number;
  readonly entriesAt: number;
}

/**
 * Where the parts of a saved baseline lie, or null when its header is not this format's or
 * its size is not the one the header gives (a torn file).
 */
function layout(bytes: Uint8Array): Layout | null {
  if (bytes.byteLength < HEADER || bytes.byteOffset % 8 !== 0) return null;
  const head = new Uint32Array(bytes.buffer, bytes.byteOffset, HEADER / 4);
  if (head[0] !== MAGIC || head[1] !== VERSION) return null;
  const files = head[2] as number;
  const namesAt = HEADER + 4 * files;
  const namesLength = head[3] as number;
  const total = (head[4] as number) * STRIDE;
  const entriesAt = align8(namesAt + namesLength);
  if (entriesAt + 8 * total !== bytes.byteLength) return null;
  return { files, namesAt, namesLength, total, entriesAt };
}

/**
 * The files a saved baseline holds, in their order, or null when the bytes are not a whole,
 * well-formed baseline of this version (an older format, another byte order, a torn or
 * foreign file): read as no baseline. The entries are views into `bytes`, not copies.
 */
export function decodeBaseline(bytes: Uint8Array): Map<string, FileEntries> | null {
  const at = layout(bytes);
  if (at === null) return null;
  const counts = new Uint32Array(bytes.buffer, bytes.byteOffset + HEADER, at.files);
  const names = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  let records: string[];
  try {
    records = names.decode(bytes.subarray(at.namesAt, at.namesAt + at.namesLength)).split("\0");
  } catch {
    return null;
  }
  if (records.length !== at.files + 2 || records[0] !== "" || records[at.files + 1] !== "")
    return null;
  const entries = new Float64Array(bytes.buffer, bytes.byteOffset + at.entriesAt, at.total);
  const files = new Map<string, FileEntries>();
  let from = 0;
  for (let i = 0; i < at.files; i++) {
    const record = records[i + 1] as string;
    const count = counts[i] as number;
    if (record[0] !== (count === 0 ? "c" : "d") || from + count * STRIDE > at.total) return null;
    files.set(record.slice(1), { e: entries.subarray(from, from + count * STRIDE) });
    from += count * STRIDE;
  }
  return files.size === at.files && from === at.total ? files : null;
}

/**
 * Does a saved baseline say, without decoding it, that each of `files` is known clean (no
 * diagnostics)? A search of its names for each one's clean record: ~0.1 ms in a
 * 20,000-file baseline, where decoding it costs several, for a run over a few files.
 */
export function knownCleanInBytes(bytes: Uint8Array, files: readonly string[]): boolean {
  const at = layout(bytes);
  if (at === null) return false;
  const names = Buffer.from(bytes.buffer, bytes.byteOffset + at.namesAt, at.namesLength);
  for (const file of files)
    if (file.includes("\0") || names.indexOf(`\0c${file}\0`, 0, "utf8") < 0) return false;
  return true;
}
