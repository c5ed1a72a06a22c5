import { runGit, splitNul } from "../match/git.ts";
import { hasEscapedBytes } from "../util/path-bytes.ts";
import { readBlob } from "./file-blob.ts";
import { gitOnPaths } from "./git-paths.ts";

export interface Aside {
  /** Where it stood in the work tree, from the top. */
  readonly path: string;
  /** Where it is now, beside that place. */
  readonly at: string;
}

/**
 * Which asides hold exactly the index's version of their path (git holds that, so they may
 * go). Judged on the moved file itself, which no one writes to by its old name any more.
 * Raw bytes first; a file whose raw bytes differ is asked of git with the path's filters
 * (line endings, a clean filter), as `git status` would. When git cannot say, none are.
 */
export function sameAsIndex(top: string, asides: readonly Aside[]): Set<string> {
  const same = new Set<string>();
  if (asides.length === 0) return same;
  let staged: Map<string, { mode: string; id: string }>;
  try {
    staged = indexEntries(top, [...new Set(asides.map((a) => a.path))]);
  } catch {
    return same;
  }
  for (const { path, at } of asides) {
    const entry = staged.get(path);
    if (entry === undefined) continue;
    const blob = readBlob(at, entry.id.length === 64);
    if (blob.key === `${entry.mode} ${entry.id}`) same.add(at);
    else if (
      blob.mode === entry.mode &&
      entry.mode !== "120000" &&
      filtered(top, path, at) === entry.id
    ) {
      same.add(at);
    }
  }
  return same;
}

/** Entries at stage 0 only: an unmerged path has no one version to match. */
function indexEntries(
  top: string,
  paths: readonly string[],
): Map<string, { mode: string; id: string }> {
  const out = new Map<string, { mode: string; id: string }>();
  const text = gitOnPaths(top, ["ls-files", "--stage", "-z"], paths, "read the index's versions");
  for (const record of splitNul(text)) {
    // "<mode> <id> <stage>\t<path>"
    const tab = record.indexOf("\t");
    const [mode, id, stage] = record.slice(0, tab).split(" ");
    if (stage === "0" && mode !== undefined && id !== undefined) {
      out.set(record.slice(tab + 1), { mode, id });
    }
  }
  return out;
}

function filtered(top: string, path: string, at: string): string | null {
  if (hasEscapedBytes(path) || hasEscapedBytes(at)) return null;
  const r = runGit(top, ["hash-object", `--path=${path}`, "--", at]);
  return r.ok ? r.stdout.trim() : null;
}
