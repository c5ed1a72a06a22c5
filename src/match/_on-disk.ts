import { lstatSync, readdirSync } from "node:fs";

/**
 * A checker for "does this path below `root` exist?" that reads each directory once
 * instead of calling lstat per file: for 20,000 tracked files in a few hundred
 * directories that is a few hundred syscalls, not 20,000. A name the listing lacks
 * (a different Unicode normalization on macOS, say) is confirmed with lstat.
 */
export function onDisk(root: string): (relPosixPath: string) => boolean {
  const listings = new Map<string, ReadonlySet<string>>();
  return (path) => {
    const slash = path.lastIndexOf("/");
    const dir = slash === -1 ? "" : path.slice(0, slash);
    let names = listings.get(dir);
    if (names === undefined) {
      try {
        names = new Set(readdirSync(dir === "" ? root : `${root}/${dir}`));
      } catch {
        names = new Set();
      }
      listings.set(dir, names);
    }
    if (names.has(path.slice(slash + 1))) return true;
    try {
      lstatSync(`${root}/${path}`);
      return true;
    } catch {
      return false;
    }
  };
}
