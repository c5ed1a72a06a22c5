import { closeSync, copyFileSync, openSync, renameSync, rmSync } from "node:fs";
import { CpilotError } from "../util/errors.ts";

/**
 * Change the index under git's own lock (`<index>.lock`, made exclusively), so no other git
 * command can stage anything between what `change` reads and writes. When it throws, the
 * index is as it was.
 */
export function withIndexLock<T>(
  indexFile: string,
  change: (copy: string) => T,
  action: string,
): T {
  const lock = `${indexFile}.lock`;
  try {
    closeSync(openSync(lock, "wx", 0o666));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    throw new CpilotError(`Cannot ${action}: the index is locked ("${lock}" exists)`, {
      hint: "another git command is at work in this repository; commit again once it is done (if none is, remove that file)",
    });
  }
  const copy = `${indexFile}.cpilot-${process.pid}`;
  try {
    copyFileSync(indexFile, copy);
    const result = change(copy);
    renameSync(copy, lock);
    renameSync(lock, indexFile);
    return result;
  } catch (err) {
    rmSync(copy, { force: true });
    rmSync(lock, { force: true });
    throw err;
  }
}
