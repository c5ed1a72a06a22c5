import { lstatSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CpilotError } from "./errors.ts";
import { STATE_DIR } from "./state-layout.ts";

/**
 * Is `.cpilot/<sub>` below `root` cpilot's own folder: `.cpilot` and each part of `sub` a
 * real directory, not a symlink (or not there yet)? Code that deletes what it finds in a
 * state folder asks first: a symlink committed to a repository, or made by an agent's shell,
 * must not turn pruning old sessions into deleting someone's home folder.
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
 * `.cpilot/<sub...>` below `root`, made where missing, each part a real folder of its own:
 * the one way state folders are made. A `.cpilot` (or a part below it) that is a symlink
 * is refused, wherever it leads: following it put state, logs and locks outside the
 * project (or into another project's). So is one that is a file or a FIFO. Throws a
 * CpilotError the caller treats as "state cannot be saved" (results still reach the agent).
 * Costs one lstat per part when the folders exist. A `.cpilot` it makes ignores itself (a
 * `.gitignore` of `*` inside, as ruff's and pytest's caches do): run logs never show in
 * `git status` nor get committed by a `git add -A`, whether or not `cpilot init` ran; a
 * `.cpilot` without one gets it when a folder is next made in it (a `.gitignore` already
 * there is left as it is).
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
    // Once the folder is known to be a real one of its own, not a link swapped in. Also
    // when a folder is made below one an older cpilot made without it (0.1.0).
    if (made) ignoreItself(join(root, STATE_DIR));
  }
  return path;
}

/** A `.gitignore` of `*` in the new state folder; "wx": nothing there is followed or replaced. */
function ignoreItself(dir: string): void {
  try {
    writeFileSync(join(dir, ".gitignore"), "# made by cpilot: its state stays out of git\n*\n", {
      flag: "wx",
    });
  } catch {
    // best effort: the folder is what matters
  }
}
