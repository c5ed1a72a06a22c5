/** Writing one context file: backup first, atomic replace, read-back check, restore on failure. */
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { dirname } from "node:path";
import { writeFileAtomic } from "../util/atomic-write.ts";

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}

function readOrNull(path: string): Uint8Array | null {
  try {
    return readFileSync(path);
  } catch {
    return null;
  }
}

/**
 * Write `bytes` to `path` so that it ends up with the new content or its old one, never a
 * mix. `original` is the content before (null for a new file); with `backup` it is copied to
 * `path.bak` first, and a failed backup stops the write. Throws an Error saying what happened.
 */
export function writeContextFile(
  path: string,
  bytes: Uint8Array,
  original: Uint8Array | null,
  backup: boolean,
): void {
  if (backup && original !== null) writeFileAtomic(`${path}.bak`, original);
  if (original === null) mkdirSync(dirname(path), { recursive: true });
  writeFileAtomic(path, bytes);
  const written = readOrNull(path);
  if (written !== null && sameBytes(written, bytes)) return;
  const got = written === null ? "nothing" : `${written.length} of ${bytes.length} bytes`;
  if (original === null) {
    rmSync(path, { force: true });
    throw new Error(`only ${got} reached the disk; the partial new file was removed`);
  }
  try {
    writeFileAtomic(path, original);
  } catch (err) {
    throw new Error(
      `only ${got} reached the disk, and restoring the original failed too${
        backup ? ` (the backup is ${path}.bak)` : ""
      }`,
      { cause: err },
    );
  }
  const restored = readOrNull(path);
  if (restored !== null && sameBytes(restored, original)) {
    throw new Error(`only ${got} reached the disk; the original content was restored`);
  }
  throw new Error(
    `only ${got} reached the disk, and restoring the original failed too${
      backup ? ` (the backup is ${path}.bak)` : ""
    }`,
  );
}
