// cpilot's own state files: anyone with a shell or a commit can put a symlink or a FIFO there,
// so one is never followed (an append could land in ~/.bashrc), never waited on, never read
// past a cap.
import { closeSync, constants, fstatSync, openSync, writeSync } from "node:fs";
import { readRegularBytes, readRegularTail } from "./read-regular.ts";

/** Its last `maxBytes` when longer; null when missing, not regular, a symlink, or unreadable. */
export function readStateFile(path: string, maxBytes = 4 * 1024 * 1024): string | null {
  return readRegularTail(path, maxBytes, { followSymlinks: false });
}

export function readStateBytes(path: string, maxBytes: number): Uint8Array | null {
  return readRegularBytes(path, maxBytes, { followSymlinks: false });
}

/** One write(2) on O_APPEND, so concurrent processes' lines never interleave. Throws on a symlink or a non-regular file. */
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
