import { lstatSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CpilotError } from "./errors.ts";
import { STATE_DIR } from "./state-layout.ts";

/**
 * Is `.cpilot/<sub>` cpilot's own: each part a real directory, no symlink? Code that deletes
 * in a state folder asks first: a committed or planted symlink must not turn pruning into
 * deleting someone's home folder.
 */
export function isOwnStateDir(root: string, ...sub: string[]): boolean {
  let path = join(root, STATE_DIR);
  for (const part of ["", ...sub]) {
    if (part !== "") path = join(path, part);
    const st = lstatSync(path, { throwIfNoEntry: false });
    if (st === undefined) return true;
    if (st.isSymbolicLink() || !st.isDirectory()) return false;
  }
  return true;
}

/**
 * `.cpilot/<sub...>`, made where missing, each part a real folder: a symlink is refused
 * wherever it leads (state would land outside the project), as is a file or a FIFO. Throws a
 * CpilotError meaning "state cannot be saved". A `.cpilot` it makes holds a `.gitignore` of
 * `*`, so run logs never show in `git status`.
 */
export function stateDir(root: string, ...sub: string[]): string {
  let path = join(root, STATE_DIR);
  for (const part of ["", ...sub]) {
    if (part !== "") path = join(path, part);
    let st = lstatSync(path, { throwIfNoEntry: false });
    let made = false;
    if (st === undefined) {
      try {
        mkdirSync(path);
        made = true;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      }
      st = lstatSync(path);
    }
    if (st.isSymbolicLink()) {
      throw new CpilotError(`Cannot save cpilot's state in "${path}": it is a symlink`, {
        hint: "cpilot keeps its state in a folder of the project itself: remove the link (cpilot makes the folder)",
      });
    }
    if (!st.isDirectory()) {
      throw new CpilotError(`Cannot save cpilot's state in "${path}": it is not a folder`, {
        hint: "remove or rename it: cpilot makes the folder",
      });
    }
    // Only once the folder is known to be a real one of its own.
    if (made) ignoreItself(join(root, STATE_DIR));
  }
  return path;
}

/** "wx": nothing there is followed or replaced. */
function ignoreItself(dir: string): void {
  try {
    writeFileSync(join(dir, ".gitignore"), "# made by cpilot: its state stays out of git\n*\n", {
      flag: "wx",
    });
  } catch {
    // best effort: the folder is what matters
  }
}
