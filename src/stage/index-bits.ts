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
 * The entries with assume-unchanged or skip-worktree set, read from the index file itself (no
 * git process on every commit for what is nearly always none). Null when this cannot read it
 * whole (another version, a split index): the caller asks git.
 */
export function readIndexBits(path: string, hashBytes: number): Map<string, IndexBits> | null {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return null;
  }
  try {
    return readEntries(new Window(fd), hashBytes);
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

function readEntries(file: Window, hashBytes: number): Map<string, IndexBits> | null {
  if (!file.holds(0, 12) || file.length < 12) return null;
  if (file.u32(0) !== 0x44495243) return null; // "DIRC"
  const version = file.u32(4);
  if (version < 2 || version > 4) return null;
  const count = file.u32(8);
  const out = new Map<string, IndexBits>();
  const flagsAt = 40 + hashBytes;
  // version 4: each name starts with part of the previous one
  let previous = new Uint8Array(version === 4 ? 256 : 0);
  let previousLength = 0;
  let at = 12;
  for (let i = 0; i < count; i++) {
    file.holds(at, ENTRY_ROOM);
    let nameAt = at + flagsAt + 2;
    if (nameAt + 2 > file.start + file.length) return null;
    const flags = file.u16(nameAt - 2);
    let ext = 0;
    if (flags & EXTENDED) {
      if (version < 3) return null;
      ext = file.u16(nameAt);
      nameAt += 2;
    }
    const bitSet = (flags & ASSUME_VALID) !== 0 || (ext & SKIP_WORKTREE) !== 0;
    let name: Uint8Array | null = null;
    if (version === 4) {
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
      at = end + 1;
    } else {
      let length = flags & NAME_MASK;
      if (length === NAME_MASK) {
        const end = file.nul(nameAt);
        if (end < 0) return null;
        length = end - nameAt;
      }
      // entries are padded with 1 to 8 NULs to a multiple of 8 bytes
      const end = nameAt + length;
      if (end >= file.start + file.length || file.byte(end) !== 0) return null;
      if (bitSet) name = file.slice(nameAt, end);
      at += (nameAt - at + length + 8) & ~7;
    }
    if (name !== null) {
      out.set(decodeBytes(name), {
        assumeUnchanged: (flags & ASSUME_VALID) !== 0,
        skipWorktree: (ext & SKIP_WORKTREE) !== 0,
      });
    }
  }
  // a split index keeps most entries in a shared file: its "link" extension says so
  for (;;) {
    if (!file.holds(at, 8) || file.start + file.length < at + 8 + hashBytes) break;
    if (file.u32(at) === 0x6c696e6b) return null; // "link"
    at += 8 + file.u32(at + 4);
  }
  return out;
}
