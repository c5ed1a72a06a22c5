import { sha1Hex } from "../platform/digest.ts";
import { hashRegularFile } from "../util/read-regular.ts";
import { keepId, readKeptId } from "./kept-ids.ts";

const PROGRAMS = "programs";

const known = new Map<string, string>();

export interface InstallStamp {
  readonly path: string;
  readonly size: number;
  readonly mtimeMs: number;
  /** Changed by every write and not settable: a rewrite that keeps size and time still shows. */
  readonly ctimeMs: number;
  readonly ino: number;
}

/**
 * The program file's content id (symlinks followed), the same on every machine. Kept by the
 * install's path, size, times and inode: hashing a large program per call costs more than the check.
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
