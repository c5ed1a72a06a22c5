import { sha1Hex } from "../platform/digest.ts";
import { hashRegularFile } from "../util/read-regular.ts";
import { keepId, readKeptId } from "./kept-ids.ts";

/** Under `.cpilot/cache/`: program content ids by where and when the program was installed. */
const PROGRAMS = "programs";

/** Ids already known to this process, by install stamp. */
const known = new Map<string, string>();

/** What tells one install of a program from another on this machine, without reading it. */
export interface InstallStamp {
  readonly path: string;
  readonly size: number;
  readonly mtimeMs: number;
  /** Changed by every write, and not settable: a rewrite that keeps size and time still shows. */
  readonly ctimeMs: number;
  readonly ino: number;
}

/**
 * The content id of the program file at `stamp.path` (symlinks followed): the same on every
 * machine that has the same program, whatever its install time. Hashing a large program on
 * every call would cost more than the check, so the id is kept under `.cpilot/cache/` by
 * the install's path, size, times and inode, and read from there until one of them changes.
 * Null when the file cannot be read.
 */
export function programContentId(root: string, stamp: InstallStamp): string | null {
  const memo = sha1Hex(
    JSON.stringify([stamp.path, stamp.size, stamp.mtimeMs, stamp.ctimeMs, stamp.ino]),
  );
  const inProcess = known.get(memo) ?? readKeptId(root, PROGRAMS, memo);
  if (inProcess !== null && inProcess !== undefined) {
    known.set(memo, inProcess);
    return inProcess;
  }
  const id = hashRegularFile(stamp.path);
  if (id === null) return null;
  known.set(memo, id);
  keepId(root, PROGRAMS, memo, id);
  return id;
}
