import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { type GitEnv, gitFailure, runGit, splitNul } from "../match/git.ts";
import { digestHex } from "../platform/digest.ts";
import { indexFileOf } from "./index-file.ts";

/** What the index holds against a tree (`git diff-index --cached ... <tree>`): the staged files, as one answer. */
export const STAGED_AGAINST = [
  "diff-index",
  "--cached",
  "-z",
  "--no-renames",
  "--ignore-submodules=all",
  "--ita-invisible-in-index",
] as const;

/**
 * Changes with any write of the index (size, time, trailing checksum), read without git; null
 * when unreadable. An index written with `index.skipHash` ends in zeros where the checksum
 * goes: a rewrite at the same size within one tick of the clock would go unseen, so the
 * stamp of such an index names its bytes instead.
 */
export function indexStamp(indexFile: string): string | null {
  let fd: number | null = null;
  try {
    fd = openSync(indexFile, "r");
    const stat = fstatSync(fd, { bigint: true });
    const tail = Buffer.alloc(32);
    const size = Number(stat.size);
    const n = readSync(fd, tail, 0, Math.min(32, size), Math.max(0, size - 32));
    const end = tail.subarray(0, n);
    const sum = skipsHash(end) ? digestHex("sha1", [readWhole(fd, size)]) : end.toString("hex");
    return `${stat.size}:${stat.mtimeNs}:${sum}`;
  } catch {
    return null;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

/** The last 20 bytes (a SHA-1 checksum; the end of a SHA-256 one) all zero: git wrote no checksum. */
function skipsHash(end: Buffer): boolean {
  return end.length >= 20 && end.subarray(end.length - 20).every((b) => b === 0);
}

function readWhole(fd: number, size: number): Buffer {
  const bytes = Buffer.allocUnsafe(size);
  let at = 0;
  while (at < size) {
    const n = readSync(fd, bytes, at, size - at, at);
    if (n === 0) break;
    at += n;
  }
  return bytes.subarray(0, at);
}

export function stagedEntries(top: string, env: GitEnv = {}): Map<string, string> {
  const head = runGit(top, ["rev-parse", "--verify", "--quiet", "HEAD^{tree}"], env);
  // no commit yet: against the empty tree, whose id the object format decides
  const base = head.ok
    ? "HEAD"
    : runGit(top, ["hash-object", "-t", "tree", "/dev/null"], env).stdout.trim();
  const args = [...STAGED_AGAINST, base];
  const r = runGit(top, args, env);
  if (!r.ok) throw gitFailure(top, args, r, "read what the index stages");
  const out = new Map<string, string>();
  const fields = splitNul(r.stdout);
  for (let i = 0; i + 1 < fields.length; i += 2) {
    // ":mH mI hH hI X" then the path
    const [, mode, , id] = (fields[i] as string).slice(1).split(" ");
    out.set(fields[i + 1] as string, `${mode} ${id}`);
  }
  return out;
}

/** Staged by someone else while the check ran: neither what was checked nor what cpilot is about to stage. */
export function stagedMeanwhile(
  now: ReadonlyMap<string, string>,
  checked: ReadonlyMap<string, string>,
  mine: ReadonlyMap<string, string> = new Map(),
): string[] {
  const paths = new Set([...now.keys(), ...checked.keys()]);
  return [...paths].filter((p) => now.get(p) !== checked.get(p) && now.get(p) !== mine.get(p));
}

/**
 * Staged by someone else since `stamp` was read, against what the check read then: the
 * commit would record what no check saw. git is asked only when the index was written since.
 */
export function stagedSince(
  top: string,
  gitDir: string,
  stamp: string | null,
  checked: ReadonlyMap<string, string>,
): string[] {
  if (indexStamp(indexFileOf(top, gitDir)) === stamp) return [];
  return stagedMeanwhile(stagedEntries(top), checked);
}
