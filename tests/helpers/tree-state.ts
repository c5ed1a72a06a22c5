import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { lstatSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { join } from "node:path";

/**
 * Everything a user could lose in a work tree, as one comparable value: each file's
 * sha256 and mode (symlinks by target) below `root` except `.git/` and `.cpilot/`, what the
 * index holds (`git ls-files --stage`: mode, blob and stage of each entry) and git's status.
 */
export function treeState(root: string): Record<string, string> {
  const state: Record<string, string> = {};
  const walk = (dir: string, rel: string): void => {
    for (const name of readdirSync(dir)) {
      const path = rel === "" ? name : `${rel}/${name}`;
      if (path === ".git" || path === ".cpilot") continue;
      const abs = join(dir, name);
      const stat = lstatSync(abs);
      if (stat.isSymbolicLink()) state[path] = `link -> ${readlinkSync(abs)}`;
      else if (stat.isDirectory()) {
        if (lstatSync(join(abs, ".git"), { throwIfNoEntry: false })) state[path] = "repository";
        else walk(abs, path);
      } else {
        const sha = createHash("sha256").update(readFileSync(abs)).digest("hex");
        state[path] = `${(stat.mode & 0o7777).toString(8)} ${sha}`;
      }
    }
  };
  walk(root, "");
  const git = (...args: string[]) => execFileSync("git", args, { cwd: root, encoding: "utf8" });
  state["(index)"] = git("ls-files", "--stage", "-z");
  state["(status)"] = git("status", "--porcelain=v1", "-z", "--untracked-files=all");
  return state;
}
