import { lstatSync, readFileSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import { type GitEnv, runGit, runGitBytes, splitNul } from "../match/git.ts";
import { digestHex } from "../platform/digest.ts";

/**
 * Changes `git status` does not list, however the agent's shell hid them: files whose index
 * entry git is told not to look at (`update-index --assume-unchanged`, `--skip-worktree`),
 * files rewritten within the second git last recorded them (git keeps whole seconds of a
 * file's times), and files committed (or checked out) between two looks, so that HEAD moved
 * and the work tree is clean again. Paths are relative to `root`, the folder git runs in;
 * `env` pins the repository (see git-place.ts).
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

export function lookAtIndex(root: string, env: GitEnv = {}, racyFrom?: number): IndexLook {
  const debug = racyFrom !== undefined;
  const listed = runGit(
    root,
    ["ls-files", "-v", "-s", "-z", ...(debug ? ["--debug"] : []), "--", "."],
    env,
  );
  if (!listed.ok) return { hidden: [], submodules: [] };
  const hidden: string[] = [];
  const submodules: string[] = [];
  const racy: { rel: string; blob: string }[] = [];
  for (const { record, recorded } of indexRecords(listed.stdout, debug)) {
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
    // An ordinary one recorded since the second of the last look may have been rewritten
    // within the second git recorded, its mtime put back: git's stat check cannot tell, as
    // it keeps whole seconds; the bytes can.
    const ordinary = tag !== "S" && tag === tag.toUpperCase();
    if (blob === undefined) continue;
    if (ordinary) {
      if (racyFrom !== undefined && recorded >= racyFrom) racy.push({ rel, blob });
      continue;
    }
    const now = blobHash(join(root, rel), blob.length);
    // A file gone is listed by `git status` unless git is told not to look at it.
    if (now === null ? tag !== "S" : now !== blob) hidden.push(rel);
  }
  hidden.push(...rewrittenInPlace(root, env, racy));
  return { hidden, submodules };
}

/**
 * Which of `entries` hold other bytes than their index entry, hashed by git as it would
 * hash them (line endings converted as the attributes say; the filters `env` distrusts
 * are off). A file gone or no longer a file is left to `git status`, which lists it.
 */
function rewrittenInPlace(
  root: string,
  env: GitEnv,
  entries: readonly { rel: string; blob: string }[],
): string[] {
  const files = entries.filter(
    ({ rel }) => lstatSync(join(root, rel), { throwIfNoEntry: false })?.isFile() === true,
  );
  const changed: string[] = [];
  for (let at = 0; at < files.length; at += ASKED_AT_ONCE) {
    const some = files.slice(at, at + ASKED_AT_ONCE);
    const r = runGit(root, ["hash-object", "--", ...some.map((e) => e.rel)], env);
    const ids = r.stdout.split("\n");
    // An answer that cannot be read counts each file as changed: checked, not missed.
    some.forEach(({ rel, blob }, i) => {
      if (!r.ok || ids[i] !== blob) changed.push(rel);
    });
  }
  return changed;
}

const ASKED_AT_ONCE = 500;

/**
 * `ls-files -z` records, each with the later of the whole seconds its ctime and mtime were
 * recorded at (with `debug`: `--debug` adds five lines after each record's NUL).
 */
function* indexRecords(
  out: string,
  debug: boolean,
): Generator<{ record: string; recorded: number }> {
  let at = 0;
  while (at < out.length) {
    const end = out.indexOf("\0", at);
    if (end < 0) return;
    const record = out.slice(at, end);
    at = end + 1;
    let recorded = 0;
    if (debug) {
      for (let line = 0; line < 5; line++) {
        const stop = out.indexOf("\n", at);
        if (stop < 0) return;
        const m = /^ {2}[cm]time: (\d+):/.exec(out.slice(at, stop));
        if (m) recorded = Math.max(recorded, Number(m[1]));
        at = stop + 1;
      }
    }
    yield { record, recorded };
  }
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
export function headCommit(root: string, env: GitEnv = {}): string | null {
  const r = runGit(root, ["rev-parse", "-q", "--verify", "HEAD^{commit}"], env);
  return r.ok ? r.stdout.trim() || null : null;
}

/** A file that differs between two commits, under `root`. */
export interface CommittedChange {
  readonly path: string;
  /** True when the earlier commit did not hold it. */
  readonly added: boolean;
}

/** The files under `root` that differ between the commits `from` and `to`. */
export function committedChanges(
  root: string,
  from: string,
  to: string,
  env: GitEnv = {},
): CommittedChange[] {
  const diff = runGit(
    root,
    [
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
    ],
    env,
  );
  if (!diff.ok) return [];
  const fields = splitNul(diff.stdout);
  const changes: CommittedChange[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2)
    changes.push({ path: fields[i + 1] as string, added: fields[i] === "A" });
  return changes;
}

/** The bytes `commit` held at `rel` (relative to `root`), or null when it held none. */
export function committedBytes(
  root: string,
  commit: string,
  rel: string,
  env: GitEnv = {},
): Uint8Array | null {
  const r = runGitBytes(root, ["cat-file", "blob", `${commit}:./${rel}`], env);
  return r.status === 0 ? r.stdout : null;
}
