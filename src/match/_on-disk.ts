import { lstatSync, readdirSync } from "node:fs";
import { fsPath } from "../util/path-bytes.ts";

/**
 * "Is there a file at this path below `root`?", reading each directory once rather than an
 * lstat per file. A symlink counts, as git tracks it; a name the listing lacks (another
 * Unicode normalization on macOS) is confirmed with lstat.
 */
export function onDisk(root: string): (relPosixPath: string) => boolean {
  const listings = new Map<string, ReadonlySet<string>>();
  let lastDir: string | null = null;
  let lastNames: ReadonlySet<string> = new Set();
  return (path) => {
    const slash = path.lastIndexOf("/");
    let names: ReadonlySet<string> | undefined;
    if (lastDir !== null && slash === lastDir.length && path.startsWith(lastDir)) {
      names = lastNames;
    } else {
      const dir = slash === -1 ? "" : path.slice(0, slash);
      names = listings.get(dir);
      if (names === undefined) {
        names = fileNames(dir === "" ? root : `${root}/${dir}`);
        listings.set(dir, names);
      }
      lastDir = dir;
      lastNames = names;
    }
    if (names.has(path.slice(slash + 1))) return true;
    try {
      return !lstatSync(fsPath(`${root}/${path}`)).isDirectory(); // a name not UTF-8: its bytes
    } catch {
      return false;
    }
  };
}

function fileNames(dir: string): ReadonlySet<string> {
  const names = new Set<string>();
  try {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory()) names.add(entry.name);
    }
  } catch {
    // not a directory (any more): nothing below it exists
  }
  return names;
}
