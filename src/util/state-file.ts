// Reading and appending cpilot's own state files under `.cpilot/`. Anyone with a shell in
// the project, or a commit in a cloned repository, can put a symlink or a FIFO there: a
// state file is never followed through a symlink (an append could land in ~/.bashrc),
// never waited on (a FIFO would block the call for good) and never read past a size cap.
import { closeSync, constants, fstatSync, openSync, writeSync } from "node:fs";
import { readRegularBytes, readRegularTail } from "./read-regular.ts";

/**
 * The file's text (its last `maxBytes` when longer), or null when it is missing, not a
 * regular file, a symlink, or unreadable.
 */
export function readStateFile(path: string, maxBytes = 4 * 1024 * 1024): string | null {
  return readRegularTail(path, maxBytes, { followSymlinks: false });
}

/**
 * The file's bytes (offset 0 in memory of their own), or null when it is missing, not a
 * regular file, a symlink, larger than `maxBytes`, or unreadable.
 */
export function readStateBytes(path: string, maxBytes: number): Uint8Array | null {
  return readRegularBytes(path, maxBytes, { followSymlinks: false });
}

/**
 * Append `text` with one write(2) on an O_APPEND descriptor (lines from concurrent processes
 * never interleave), creating the file with `mode`. Throws when `path` is a symlink or not a
 * regular file.
 */
export function appendStateFile(path: string, text: string, mode = 0o644): void {
  const fd = openSync(
    path,
    constants.O_WRONLY |
      constants.O_APPEND |
      constants.O_CREAT |
      constants.O_NONBLOCK |
      constants.O_NOFOLLOW,
    mode,
  );
  try {
    if (!fstatSync(fd).isFile()) throw new Error(`${path} is not a regular file`);
    writeSync(fd, new TextEncoder().encode(text));
  } finally {
    closeSync(fd);
  }
}
