import { lstatSync, readdirSync, rmSync } from "node:fs";
import { basename, dirname, join } from "node:path";

/**
 * Remove the `<stage>.new-<pid>` folders that checks killed while claiming the stage left
 * behind, once their pid is gone. Nothing is set aside before the claim, so such a folder
 * holds at most its journal; one holding anything else is left alone.
 */
export function clearDeadClaims(dir: string): void {
  const parent = dirname(dir);
  const prefix = `${basename(dir)}.new-`;
  let names: string[];
  try {
    names = readdirSync(parent);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const pid = Number(name.slice(prefix.length));
    if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid || running(pid)) continue;
    const path = join(parent, name);
    try {
      const stat = lstatSync(path);
      const empty =
        stat.isDirectory() &&
        readdirSync(path, { withFileTypes: true }).every(
          (e) => e.name === "journal.json" && e.isFile(),
        );
      // a link is removed itself, never what it names
      if (empty || stat.isSymbolicLink()) rmSync(path, { recursive: true, force: true });
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}
