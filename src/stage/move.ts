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

/** A rename, or a copy and unlink across file systems. False when `from` does not exist. */
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
  // Copied beside `to` and renamed over it: `to` is never missing or half written, and
  // `from` goes only once the copy is whole.
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

export function rmIfThere(path: string): void {
  try {
    unlinkSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
}

export function onRealFolders(top: string, path: string): boolean {
  const parts = path.split("/");
  for (let i = 1; i < parts.length; i++) {
    const stat = lstatSync(join(top, ...parts.slice(0, i)), { throwIfNoEntry: false });
    if (stat === undefined) return true;
    if (!stat.isDirectory()) return false;
  }
  return true;
}
