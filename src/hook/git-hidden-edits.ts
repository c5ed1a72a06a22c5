import { lstatSync, readFileSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import { runGit, runGitBytes, splitNul } from "../match/git.ts";
import { digestHex } from "../platform/digest.ts";

/**
 * Changes `git status` does not list, however the agent's shell hid them: files whose index
 * entry git is told not to look at (`update-index --assume-unchanged`, `--skip-worktree`),
 * and files committed (or checked out) between two looks, so that HEAD moved and the work
 * tree is clean again. Paths are relative to `root`, the folder git runs in.
 */

/** What the index says git will not look at, under `root`. */
export interface IndexLook {
  /**
   * The files git is told not to look at that differ from their index entry now (their
   * bytes are compared), or that are gone while only assumed unchanged. Sparse checkout's
   * skip-worktree files are absent by design and are not listed.
   */
  readonly hidden: string[];
  /** The submodules' folders (`git status` is told to leave them to cpilot). */
  readonly submodules: string[];
}

export function lookAtIndex(root: string): IndexLook {
  const listed = runGit(root, ["ls-files", "-v", "-s", "-z", "--", "."]);
  if (!listed.ok) return { hidden: [], submodules: [] };
  const hidden: string[] = [];
  const submodules: string[] = [];
  for (const record of splitNul(listed.stdout)) {
    const tag = record[0];
    const tab = record.indexOf("\t");
    if (tag === undefined || tab < 0) continue;
    const [, mode, blob] = record.slice(0, tab).split(" ");
    const rel = record.slice(tab + 1);
    if (mode === "160000") {
      submodules.push(rel);
      continue;
    }
    // "H" is an ordinary entry; lowercase tags are assumed unchanged, "S" is skip-worktree.
    if (tag !== "S" && tag === tag.toUpperCase()) continue;
    if (blob === undefined) continue;
    const now = blobHash(join(root, rel), blob.length);
    if (now === null ? tag !== "S" : now !== blob) hidden.push(rel);
  }
  return { hidden, submodules };
}

/** Git's id of a file's bytes (in the repository's hash), or null when it is not a file. */
function blobHash(path: string, idLength: number): string | null {
  try {
    const st = lstatSync(path);
    if (!st.isFile() && !st.isSymbolicLink()) return "";
    const bytes = st.isSymbolicLink()
      ? readlinkSync(path, { encoding: "buffer" })
      : readFileSync(path);
    const header = new TextEncoder().encode(`blob ${bytes.length}\0`);
    return digestHex(idLength === 64 ? "sha256" : "sha1", [header, bytes]);
  } catch {
    return null;
  }
}

/** The commit HEAD names now, or null (no commit yet, or git fails). */
export function headCommit(root: string): string | null {
  const r = runGit(root, ["rev-parse", "-q", "--verify", "HEAD^{commit}"]);
  return r.ok ? r.stdout.trim() || null : null;
}

/** A file that differs between two commits, under `root`. */
export interface CommittedChange {
  readonly path: string;
  /** True when the earlier commit did not hold it. */
  readonly added: boolean;
}

/** The files under `root` that differ between the commits `from` and `to`. */
export function committedChanges(root: string, from: string, to: string): CommittedChange[] {
  const diff = runGit(root, [
    "diff",
    "--no-ext-diff",
    "--no-renames",
    "--ignore-submodules=all",
    "--relative",
    "--name-status",
    "-z",
    from,
    to,
    "--",
  ]);
  if (!diff.ok) return [];
  const fields = splitNul(diff.stdout);
  const changes: CommittedChange[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2)
    changes.push({ path: fields[i + 1] as string, added: fields[i] === "A" });
  return changes;
}

/** The bytes `commit` held at `rel` (relative to `root`), or null when it held none. */
export function committedBytes(root: string, commit: string, rel: string): Uint8Array | null {
  const r = runGitBytes(root, ["cat-file", "blob", `${commit}:./${rel}`]);
  return r.status === 0 ? r.stdout : null;
}
