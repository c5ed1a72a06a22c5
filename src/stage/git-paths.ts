import { type GitEnv, gitFailure, runGit, runGitWithList } from "../match/git.ts";
import { gitWithNames } from "../match/git-names.ts";
import { hasEscapedBytes } from "../util/path-bytes.ts";

export { gitWithNames };

export const CHUNK = 500;

export function gitOnPaths(
  top: string,
  args: readonly string[],
  paths: readonly string[],
  action: string,
  env?: GitEnv,
): string {
  let out = "";
  for (let i = 0; i < paths.length; i += CHUNK) {
    const chunk = paths.slice(i, i + CHUNK);
    const full = [...args, "--", ...chunk];
    const r = chunk.some(hasEscapedBytes)
      ? gitWithNames(top, [...args, "--"], chunk, (cwd, a, list) =>
          runGitWithList(cwd, a, list, env),
        )
      : runGit(top, full, env);
    if (!r.ok) throw gitFailure(top, full, r, action);
    out += r.stdout;
  }
  return out;
}
