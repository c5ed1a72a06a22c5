import { lstatSync, readFileSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import { blobId } from "../cache/blob-id.ts";
import { type GitEnv, runGit, runGitBytes, splitNul } from "../match/git.ts";

/**
 * Changes `git status` does not list however the shell hid them: `--assume-unchanged` and
 * `--skip-worktree` entries, files rewritten within the second git last recorded (it keeps
 * whole seconds), and files committed between two looks (HEAD moved, the tree is clean).
 */

export interface IndexLook {
  /**
   * Those that differ from their index entry now (bytes compared), or are gone while only
   * assumed unchanged. Sparse checkout's skip-worktree files are absent by design.
   */
  readonly hidden: string[];
  /** `git status` is told to leave them to cpilot. */
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
    // "H" is ordinary; lowercase tags are assumed unchanged, "S" is skip-worktree. An ordinary
    // entry recorded since the last look's second may have been rewritten with its mtime put
    // back: git's whole-second stat check cannot tell, the bytes can.
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

/** Hashed by git as it would (attributes on, distrusted filters off); a file gone is left to git status. */
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

/** Each with the later whole second of its ctime and mtime (`--debug` adds five lines per record). */
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

/** In the repository's hash; null when not a file. */
function blobHash(path: string, idLength: number): string | null {
  try {
    const st = lstatSync(path);
    if (!st.isFile() && !st.isSymbolicLink()) return "";
    const bytes = st.isSymbolicLink()
      ? readlinkSync(path, { encoding: "buffer" })
      : readFileSync(path);
    return blobId(bytes, idLength === 64 ? "sha256" : "sha1");
  } catch {
    return null;
  }
}

/** null: no commit yet, or git fails. */
export function headCommit(root: string, env: GitEnv = {}): string | null {
  const r = runGit(root, ["rev-parse", "-q", "--verify", "HEAD^{commit}"], env);
  return r.ok ? r.stdout.trim() || null : null;
}

export interface CommittedChange {
  readonly path: string;
  /** The earlier commit did not hold it. */
  readonly added: boolean;
}

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

/** null when it held none. */
export function committedBytes(
  root: string,
  commit: string,
  rel: string,
  env: GitEnv = {},
): Uint8Array | null {
  const r = runGitBytes(root, ["cat-file", "blob", `${commit}:./${rel}`], env);
  return r.status === 0 ? r.stdout : null;
}
