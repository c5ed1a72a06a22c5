/**
 * The folder a differential test applies one patch in: `root/` (the agent's folder) with a
 * file to update, one to delete, a secret, `.git/hooks/`, a link to a folder deep inside
 * (`lnk`) and one to `.git/hooks` (`hk`); `outside/` beside it and `home/` for `~`. A
 * snapshot before and after names every file the agent changed, wherever it is.
 */
import {
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";
import { tempDir } from "../../../helpers/tmp.ts";

export interface PatchTree {
  readonly top: string;
  readonly root: string;
  readonly outside: string;
  readonly home: string;
}

export function patchTree(): PatchTree {
  const top = tempDir("cpilot-patch-diff-");
  const tree = {
    top,
    root: join(top, "root"),
    outside: join(top, "outside"),
    home: join(top, "home"),
  };
  fill(tree);
  return tree;
}

function fill({ top, root }: PatchTree): void {
  for (const d of ["root/sub", "root/deep/a/b", "root/.git/hooks", "outside", "home"])
    mkdirSync(join(top, d), { recursive: true });
  writeFileSync(join(root, "u.txt"), "one\ntwo\nthree\n");
  writeFileSync(join(root, "d.txt"), "del\n");
  writeFileSync(join(root, ".env"), "SECRET=1\n");
  symlinkSync(join(root, "deep/a"), join(root, "lnk"));
  symlinkSync(join(root, ".git/hooks"), join(root, "hk"));
}

/** The tree as patchTree made it, its folders kept (an agent may be running in `root`). */
export function resetTree(tree: PatchTree): void {
  for (const dir of [tree.top, tree.root])
    for (const name of readdirSync(dir))
      if (dir !== tree.top || name !== "root")
        rmSync(join(dir, name), { recursive: true, force: true });
  fill(tree);
}

/** Every file and link under `dir` (links not followed): path -> content or link target. */
export function snapshot(dir: string, out = new Map<string, string>()): Map<string, string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const st = lstatSync(path);
    if (st.isSymbolicLink()) out.set(path, `link:${readlinkSync(path)}`);
    else if (st.isDirectory()) snapshot(path, out);
    else out.set(path, `file:${readFileSync(path, "latin1")}`);
  }
  return out;
}

/** The files that differ between two snapshots. */
export function changed(before: Map<string, string>, after: Map<string, string>): string[] {
  const all = new Set([...before.keys(), ...after.keys()]);
  return [...all].filter((p) => before.get(p) !== after.get(p)).sort();
}

/** `path` with its folder's links resolved, as a snapshot names the file (its folder may not exist). */
export function physical(path: string): string {
  try {
    return join(realpathSync(dirname(path)), basename(path));
  } catch {
    return path;
  }
}
