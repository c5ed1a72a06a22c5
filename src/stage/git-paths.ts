import { gitFailure, runGit } from "../match/_git.ts";

/** Arguments per git call: far below any command line limit. */
export const CHUNK = 500;

/** Run git on `paths` in chunks, after `args`; throws a CpilotError when one fails. */
export function gitOnPaths(
  top: string,
  args: readonly string[],
  paths: readonly string[],
  action: string,
): string {
  let out = "";
  for (let i = 0; i < paths.length; i += CHUNK) {
    const full = [...args, "--", ...paths.slice(i, i + CHUNK)];
    const r = runGit(top, full);
    if (!r.ok) throw gitFailure(top, full, r, action);
    out += r.stdout;
  }
  return out;
}
