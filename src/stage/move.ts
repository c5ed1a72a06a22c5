import {
  chmodSync,
  copyFileSync,
  lstatSync,
  mkdirSync,
  readlinkSync,
  renameSync,
  symlinkSync,
  unlinkSync,
} from "node:fs";
import { dirname } from "node:path";

/**
 * Move a file (or symlink) to `to`, replacing what is there, creating folders: a rename,
 * which keeps bytes, mode and times and costs nothing, or a copy and unlink where the two
 * sit on different file systems. Returns false when `from` does not exist.
 */
export function moveFile(from: string, to: string): boolean {
  mkdirSync(dirname(to), { recursive: true });
  try {
    renameSync(from, to);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return false;
    if (code !== "EXDEV") throw err;
  }
  const stat = lstatSync(from);
  rmIfThere(to);
  if (stat.isSymbolicLink()) symlinkSync(readlinkSync(from), to);
  else {
    copyFileSync(from, to);
    chmodSync(to, stat.mode & 0o7777);
  }
  unlinkSync(from);
  return true;
}

/** Remove a file if it is there. */
export function rmIfThere(path: string): void {
  try {
    unlinkSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
}
