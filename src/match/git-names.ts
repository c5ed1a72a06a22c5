import { Buffer } from "node:buffer";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { encodeBytes, hasEscapedBytes } from "../util/path-bytes.ts";
import { type GitResult, runGit, runGitWithList } from "./git.ts";

/** Run git with `args` then `names`, one of which is not UTF-8: the names go as bytes through a file. */
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

export function runGitOnNames(
  cwd: string,
  args: readonly string[],
  names: readonly string[],
): GitResult {
  return names.some(hasEscapedBytes)
    ? gitWithNames(cwd, args, names)
    : runGit(cwd, [...args, ...names]);
}
