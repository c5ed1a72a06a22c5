import { Buffer } from "node:buffer";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type GitEnv, type GitResult, gitFailure, runGit, runGitWithList } from "../match/git.ts";
import { encodeBytes, hasEscapedBytes } from "../util/path-bytes.ts";

/** Arguments per git call: far below any command line limit. */
export const CHUNK = 500;

/**
 * Run git on `paths` in chunks, after `args` (with `env` over this process's environment);
 * throws a CpilotError when one fails.
 */
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

/**
 * Run git with `args` then `names`, one of which is not UTF-8: the names go as bytes
 * through a file (see runGitWithList). Rare, so the temporary folder costs nothing usual.
 */
export function gitWithNames<T = GitResult>(
  top: string,
  args: readonly string[],
  names: readonly string[],
  run: (cwd: string, args: readonly string[], list: string) => T = runGitWithList as never,
): T {
  const dir = mkdtempSync(join(tmpdir(), "cpilot-names-"));
  try {
    const list = join(dir, "names");
    writeFileSync(
      list,
      Buffer.concat(names.map((n) => Buffer.concat([encodeBytes(n), Buffer.from([0])]))),
      {
        mode: 0o600,
      },
    );
    return run(top, args, list);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
