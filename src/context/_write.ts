/** Backup first, atomic replace, read-back check, restore on failure. */
import { readFileIn, removeFileIn, type Target, writeFileIn } from "../util/contained-write.ts";

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0;
}

function readOrNull(target: Target): Uint8Array | null {
  const read = readFileIn(target.dir, target.name, Number.MAX_SAFE_INTEGER);
  return read.kind === "ok" ? read.bytes : null;
}

/**
 * The file ends up with the new content or its old one, never a mix. With `backup` the old content
 * goes to `NAME.bak` first, and a failed backup stops the write. Throws saying what happened.
 */
export function writeContextFile(
  target: Target,
  bytes: Uint8Array,
  original: Uint8Array | null,
  backup: boolean,
): void {
  const { dir, name } = target;
  if (backup && original !== null) writeFileIn(dir, `${name}.bak`, original);
  writeFileIn(dir, name, bytes);
  const written = readOrNull(target);
  if (written !== null && sameBytes(written, bytes)) return;
  const got = written === null ? "nothing" : `${written.length} of ${bytes.length} bytes`;
  if (original === null) {
    try {
      removeFileIn(dir, name);
    } catch {
      // nothing there to remove
    }
    throw new Error(`only ${got} reached the disk; the partial new file was removed`);
  }
  const failedToo = `only ${got} reached the disk, and restoring the original failed too${
    backup ? ` (the backup is ${target.path}.bak)` : ""
  }`;
  try {
    writeFileIn(dir, name, original);
  } catch (err) {
    throw new Error(failedToo, { cause: err });
  }
  const restored = readOrNull(target);
  if (restored !== null && sameBytes(restored, original)) {
    throw new Error(`only ${got} reached the disk; the original content was restored`);
  }
  throw new Error(failedToo);
}
