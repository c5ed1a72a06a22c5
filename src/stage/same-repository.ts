import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { CpilotError } from "../util/errors.ts";
import { realOr } from "../util/real-path.ts";

/**
 * Run in another repository (a nested one or submodule whose own commit runs the hook, a
 * --config into another), the check would judge that repository's staged files, never the
 * commit's own. Found by stats alone; a GIT_DIR or GIT_WORK_TREE still set is trusted.
 */
export function assertSameRepository(cwd: string, top: string, root: string): void {
  if (process.env.GIT_DIR || process.env.GIT_WORK_TREE) return;
  let dir = resolve(cwd);
  for (;;) {
    if (existsSync(join(dir, ".git"))) break;
    const parent = dirname(dir);
    if (parent === dir) return; // cwd is in no repository: nothing is being committed there
    dir = parent;
  }
  if (dir === top || realOr(dir) === realOr(top)) return;
  throw new CpilotError(
    `Cannot check what is staged in "${dir}": it is another git repository than the config's ("${root}" is in "${top}")`,
    {
      hint: `give that repository a config of its own (cpilot init there), or run cpilot check --staged in "${top}"`,
    },
  );
}
