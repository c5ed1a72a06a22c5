import { closeSync, openSync, readSync } from "node:fs";
import { decodeBytes } from "../util/path-bytes.ts";

export interface IndexBits {
  readonly assumeUnchanged: boolean;
  readonly skipWorktree: boolean;
}

const ASSUME_VALID = 0x8000;
const EXTENDED = 0x4000;
const SKIP_WORKTREE = 0x4000;
const NAME_MASK = 0x0fff;
/** Every new page of memory costs a page fault. */
const WINDOW = 32 * 1024;

/**
 * Besides the bits, the blob id of each entry whose file name `wanted` holds (a regular file
 * that will be committed: not intent-to-add, not unmerged), by path.
 */
export interface NamedIds {
  readonly wanted: ReadonlySet<string>;
  readonly ids: Map<string, string>;
}

/**
 * The entries with assume-unchanged or skip-worktree set, read from the index file itself (no
 * git process on every commit for what is nearly always none). Null when this cannot read it
 * whole (another version, a split index): the caller asks git.
 */
export function readIndexBits(
  path: string,
  hashBytes: number,
  named?: NamedIds,
): Map<string, IndexBits> | null {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return null;
  }
  try {
    return readEntries(new Window(fd), hashBytes, named === undefined ? null : new Names(named));
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

class Window {
  bytes = new Uint8Array(WINDOW);
  start = 0;
  length = 0;
  constructor(private readonly fd: number) {}

  holds(at: number, n: number): boolean {
    if (at >= this.start && at + n <= this.start + this.length) return true;
    if (n > this.bytes.length) this.bytes = new Uint8Array(Math.max(n, this.bytes.length * 2));
    this.start = at;
    this.length = 0;
    for (;;) {
      const read = readSync(
        this.fd,
        this.bytes,
        this.length,
        this.bytes.length - this.length,
        at + this.length,
      );
      if (read <= 0) break;
      this.length += read;
      if (this.length === this.bytes.length) break;
    }
    return this.length >= Math.min(n, 1);
  }

  get atEnd(): boolean {
    return this.length < this.bytes.length;
  }

  u16(at: number): number {
    const i = at - this.start;
    return ((this.bytes[i] as number) << 8) | (this.bytes[i + 1] as number);
  }

  u32(at: number): number {
    return this.u16(at) * 0x10000 + this.u16(at + 2);
  }

  byte(at: number): number {
    return this.bytes[at - this.start] as number;
  }

  nul(at: number): number {
    for (;;) {
      const i = this.bytes.indexOf(0, at - this.start);
      if (i >= 0 && i < this.length) return this.start + i;
      if (this.atEnd) return -1;
      this.holds(this.start, this.bytes.length * 2);
    }
  }

  slice(from: number, to: number): Uint8Array {
    return this.bytes.slice(from - this.start, to - this.start);
  }
}

const ENTRY_ROOM = 62 + 32 + 4 + 8 + NAME_MASK + 8;
const INTENT_TO_ADD = 0x2000;
const STAGE_MASK = 0x3000;
const SLASH = 0x2f;

/** Collects NamedIds; a name is decoded only when its last part has a wanted length. */
class Names {
  private readonly lengths: ReadonlySet<number>;
  constructor(private readonly named: NamedIds) {
    this.lengths = new Set([...named.wanted].map((n) => n.length));
  }

  visit(
    bytes: Uint8Array,
    from: number,
    to: number,
    idAt: number,
    hashBytes: number,
    flags: number,
    ext: number,
  ): void {
    let base = to;
    while (base > from && bytes[base - 1] !== SLASH) base--;
    if (!this.lengths.has(to - base)) return;
    if (!this.named.wanted.has(decodeBytes(bytes.subarray(base, to)))) return;
    if ((ext & INTENT_TO_ADD) !== 0 || (flags & STAGE_MASK) !== 0) return;
    const mode =
      (((bytes[idAt - 16] as number) << 24) >>> 0) |
      ((bytes[idAt - 15] as number) << 16) |
      ((bytes[idAt - 14] as number) << 8) |
      (bytes[idAt - 13] as number);
    // a link or a submodule: no file's bytes to read there
    if ((mode & 0o170000) !== 0o100000) return;
    this.named.ids.set(
      decodeBytes(bytes.subarray(from, to)),
      Buffer.from(bytes.subarray(idAt, idAt + hashBytes)).toString("hex"),
    );
  }
}

function readEntries(
  file: Window,
  hashBytes: number,
  names: Names | null,
): Map<string, IndexBits> | null {
  if (!file.holds(0, 12) || file.length < 12) return null;
  if (file.u32(0) !== 0x44495243) return null; // "DIRC"
  const version = file.u32(4);
  if (version < 2 || version > 4) return null;
  const count = file.u32(8);
  const out = new Map<string, IndexBits>();
  const flagsAt = 40 + hashBytes;
  if (version !== 4) {
    const at = scanFixedNames(file, count, flagsAt, version, out, names);
    return at < 0 || linkedIndex(file, at, hashBytes) ? null : out;
  }
  // version 4: each name starts with part of the previous one
  let previous = new Uint8Array(256);
  let previousLength = 0;
  let at = 12;
  for (let i = 0; i < count; i++) {
    file.holds(at, ENTRY_ROOM);
    let nameAt = at + flagsAt + 2;
    if (nameAt + 2 > file.start + file.length) return null;
    const flags = file.u16(nameAt - 2);
    let ext = 0;
    if (flags & EXTENDED) {
      ext = file.u16(nameAt);
      nameAt += 2;
    }
    const bitSet = (flags & ASSUME_VALID) !== 0 || (ext & SKIP_WORKTREE) !== 0;
    let name: Uint8Array | null = null;
    // a varint of how many bytes of the previous name to drop, then the rest of this one
    let byte = file.byte(nameAt++);
    let strip = byte & 0x7f;
    while (byte & 0x80) {
      byte = file.byte(nameAt++);
      strip = ((strip + 1) << 7) | (byte & 0x7f);
    }
    const end = file.nul(nameAt);
    const keep = previousLength - strip;
    if (end < 0 || keep < 0) return null;
    previousLength = keep + end - nameAt;
    if (previousLength > previous.length) {
      const grown = new Uint8Array(previousLength * 2);
      grown.set(previous.subarray(0, keep));
      previous = grown;
    }
    previous.set(file.bytes.subarray(nameAt - file.start, end - file.start), keep);
    if (bitSet) name = previous.slice(0, previousLength);
    if (names !== null) {
      const entry = file.slice(at, at + flagsAt);
      const withName = new Uint8Array(flagsAt + previousLength);
      withName.set(entry);
      withName.set(previous.subarray(0, previousLength), flagsAt);
      names.visit(withName, flagsAt, flagsAt + previousLength, 40, hashBytes, flags, ext);
    }
    at = end + 1;
    if (name !== null) {
      out.set(decodeBytes(name), {
        assumeUnchanged: (flags & ASSUME_VALID) !== 0,
        skipWorktree: (ext & SKIP_WORKTREE) !== 0,
      });
    }
  }
  return linkedIndex(file, at, hashBytes) ? null : out;
}

/** A split index keeps most entries in a shared file: its "link" extension, after the entries, says so. */
function linkedIndex(file: Window, entriesEnd: number, hashBytes: number): boolean {
  let at = entriesEnd;
  for (;;) {
    if (!file.holds(at, 8) || file.start + file.length < at + 8 + hashBytes) return false;
    if (file.u32(at) === 0x6c696e6b) return true; // "link"
    at += 8 + file.u32(at + 4);
  }
}

/**
 * Versions 2 and 3, whose entries give their name's length: every commit reads every entry,
 * so the loop reads the window's bytes itself and refills it only near its end. Returns
 * where the entries end, or -1 when the index is not as expected.
 */
function scanFixedNames(
  file: Window,
  count: number,
  flagsAt: number,
  version: number,
  out: Map<string, IndexBits>,
  names: Names | null,
): number {
  let at = 12;
  let bytes = file.bytes;
  let start = file.start;
  let end = start + file.length;
  for (let i = 0; i < count; i++) {
    // a window that reaches the end of the file holds every entry left
    if (at + ENTRY_ROOM > end && !(file.atEnd && at >= start)) {
      file.holds(at, ENTRY_ROOM);
      bytes = file.bytes;
      start = file.start;
      end = start + file.length;
    }
    let nameAt = at + flagsAt + 2;
    if (nameAt + 2 > end) return -1;
    const f = nameAt - 2 - start;
    const flags = ((bytes[f] as number) << 8) | (bytes[f + 1] as number);
    let ext = 0;
    if (flags & EXTENDED) {
      if (version < 3) return -1;
      ext = ((bytes[f + 2] as number) << 8) | (bytes[f + 3] as number);
      nameAt += 2;
    }
    let length = flags & NAME_MASK;
    if (length === NAME_MASK) {
      const nul = file.nul(nameAt);
      if (nul < 0) return -1;
      // the search may have grown the window
      bytes = file.bytes;
      start = file.start;
      end = start + file.length;
      length = nul - nameAt;
    }
    // entries are padded with 1 to 8 NULs to a multiple of 8 bytes
    const nameEnd = nameAt + length;
    if (nameEnd >= end || bytes[nameEnd - start] !== 0) return -1;
    if ((flags & ASSUME_VALID) !== 0 || (ext & SKIP_WORKTREE) !== 0) {
      out.set(decodeBytes(bytes.slice(nameAt - start, nameEnd - start)), {
        assumeUnchanged: (flags & ASSUME_VALID) !== 0,
        skipWorktree: (ext & SKIP_WORKTREE) !== 0,
      });
    }
    names?.visit(bytes, nameAt - start, nameEnd - start, at + 40 - start, flagsAt - 40, flags, ext);
    at += (nameAt - at + length + 8) & ~7;
  }
  return at;
}
