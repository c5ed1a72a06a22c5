import {
  chmodSync,
  copyFileSync,
  copyLinkSync,
  dirname,
  join,
  lstatSync,
  mkdirSync,
  renameSync,
  unlinkSync,
} from "./byte-name-fs.ts";

/**
 * Move a file (or symlink) to `to`, replacing what is there, creating folders: a rename,
 * which keeps bytes, mode and times and costs nothing, or a copy and unlink where the two
 * sit on different file systems (a linked worktree whose git folder is on another disk). Returns false when `from` does not exist.
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
  // Copied beside `to` under a temporary name, then renamed over it: `to` is never missing
  // or half written (a full disk, a kill), and `from` goes only once the copy is whole.
  const stat = lstatSync(from);
  const temp = `${to}.cpilot-move-${process.pid}`;
  rmIfThere(temp);
  try {
    if (stat.isSymbolicLink()) copyLinkSync(from, temp);
    else {
      copyFileSync(from, temp);
      chmodSync(temp, stat.mode & 0o7777);
    }
    renameSync(temp, to);
  } catch (err) {
    rmIfThere(temp);
    throw err;
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

/** Is every folder on the way from `top` to `path` (relative, `/`) a real folder, no link? */
export function onRealFolders(top: string, path: string): boolean {
  const parts = path.split("/");
  for (let i = 1; i < parts.length; i++) {
    const stat = lstatSync(join(top, ...parts.slice(0, i)), { throwIfNoEntry: false });
    if (stat === undefined) return true;
    if (!stat.isDirectory()) return false;
  }
  return true;
}
