import { readFileSync } from "node:fs";
import { decodeBytes } from "../util/path-bytes.ts";

/** The index bits a person set on an entry: git then does not look at its working copy. */
export interface IndexBits {
  readonly assumeUnchanged: boolean;
  readonly skipWorktree: boolean;
}

const ASSUME_VALID = 0x8000;
const EXTENDED = 0x4000;
const SKIP_WORKTREE = 0x4000;

/**
 * The entries of the index file `path` that have assume-unchanged or skip-worktree set,
 * read from the file itself (no git process on every commit for what is nearly always
 * none). `hashBytes`: 20, or 32 in a SHA-256 repository. Null when the file is not one this
 * reads whole (another version, a split index whose entries live in a shared file, a short
 * or odd file): the caller asks git.
 */
export function readIndexBits(path: string, hashBytes: number): Map<string, IndexBits> | null {
  let buf: Buffer;
  try {
    buf = readFileSync(path);
  } catch {
    return null;
  }
  if (buf.length < 12 || buf.toString("latin1", 0, 4) !== "DIRC") return null;
  const version = buf.readUInt32BE(4);
  if (version < 2 || version > 4) return null;
  const count = buf.readUInt32BE(8);
  const out = new Map<string, IndexBits>();
  let at = 12;
  let previous: Buffer = Buffer.alloc(0);
  const flagsAt = 40 + hashBytes;
  for (let i = 0; i < count; i++) {
    if (at + flagsAt + 2 > buf.length) return null;
    const flags = buf.readUInt16BE(at + flagsAt);
    let nameAt = at + flagsAt + 2;
    let ext = 0;
    if (flags & EXTENDED) {
      if (version < 3) return null;
      ext = buf.readUInt16BE(nameAt);
      nameAt += 2;
    }
    let name: Buffer;
    if (version === 4) {
      // a varint of how many bytes of the previous name to drop, then the rest of this one
      let strip = 0;
      let byte = buf[nameAt++] as number;
      strip = byte & 0x7f;
      while (byte & 0x80) {
        byte = buf[nameAt++] as number;
        strip = ((strip + 1) << 7) | (byte & 0x7f);
      }
      const end = buf.indexOf(0, nameAt);
      if (end < 0 || strip > previous.length) return null;
      name = Buffer.concat([
        previous.subarray(0, previous.length - strip),
        buf.subarray(nameAt, end),
      ]);
      previous = name;
      at = end + 1;
    } else {
      const end = buf.indexOf(0, nameAt);
      if (end < 0) return null;
      name = buf.subarray(nameAt, end);
      // entries are padded with 1 to 8 NULs to a multiple of 8 bytes
      at += (nameAt - at + name.length + 8) & ~7;
    }
    const assumeUnchanged = (flags & ASSUME_VALID) !== 0;
    const skipWorktree = (ext & SKIP_WORKTREE) !== 0;
    if (assumeUnchanged || skipWorktree) {
      out.set(decodeBytes(name), { assumeUnchanged, skipWorktree });
    }
  }
  // a split index keeps most entries in a shared file: its "link" extension says so
  while (at + 8 <= buf.length - hashBytes) {
    if (buf.toString("latin1", at, at + 4) === "link") return null;
    at += 8 + buf.readUInt32BE(at + 4);
  }
  return out;
}
