import { existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { isSameProcess } from "../platform/process-start.ts";
import { lockDirSync } from "../util/dir-lock.ts";
import { findRepository } from "../util/git-dir.ts";
import { realOr } from "../util/real-path.ts";
import { openVerifiedDir } from "../util/verified-dir.ts";
import {
  folderId,
  gitDirOfStage,
  type Journal,
  readJournal,
  settleOrphanFolder,
} from "./journal.ts";
import { stopLeftRuns } from "./left-runs.ts";
import { putBack } from "./restore.ts";

const RECOVER_LOCK = "recover.lock";
/** Putting back a large set takes seconds; a dead holder's lock is broken at once. */
const RECOVER_WAIT_MS = 60_000;

export type Recovery =
  | { readonly status: "restored"; readonly lines: readonly string[] }
  /** Not this repository's (a copy, or one moved): kept, not put back. */
  | { readonly status: "foreign"; readonly lines: readonly string[] }
  | { readonly status: "busy"; readonly pid: number }
  | { readonly status: "nothing" };

function alive(pid: number, started: number | null): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  return isSameProcess(pid, started);
}

/** Put back what a killed `check --staged` set aside in `dir`, unless that check still runs. */
export async function recoverStage(dir: string, cwd: string = process.cwd()): Promise<Recovery> {
  // One recoverer at a time: parallel ones took each other's restored files for callbacks'
  // writes. The others wait here, then find the folder gone.
  let unlock: () => void;
  const folder = openVerifiedDir(dirname(dir), "");
  try {
    unlock = lockDirSync(folder, RECOVER_LOCK, RECOVER_WAIT_MS);
  } catch (err) {
    folder.close();
    throw err;
  }
  try {
    if (!existsSync(dir)) return { status: "nothing" };
    return await recoverHeld(dir, cwd);
  } finally {
    unlock();
    folder.close();
  }
}

async function recoverHeld(dir: string, cwd: string): Promise<Recovery> {
  const keptRoot = join(dirname(dir), "kept");
  const journal = readJournal(dir);
  if (journal === null) {
    const kept = settleOrphanFolder(dir, keptRoot);
    if (kept === null) return { status: "nothing" };
    return {
      status: "restored",
      lines: [
        `cpilot: found files an interrupted \`cpilot check --staged\` set aside with no record of where they go: kept in ${kept}`,
        "hint: copy back what you miss from there (tracked/ holds working copies of tracked files, untracked/ untracked files)",
      ],
    };
  }
  // A copy of the repository has the same journal: work goes back only into the repository
  // whose git folder holds it.
  const gitDir = gitDirOfStage(dir);
  if (!sameFolder(gitDir, journal)) return foreign(dir, journal, keptRoot);
  const top = workTree(gitDir, journal, cwd);
  if (top === null) return foreign(dir, journal, keptRoot);
  if (journal.pid !== process.pid && alive(journal.pid, journal.started)) {
    return { status: "busy", pid: journal.pid };
  }
  const root =
    journal.root === undefined ? undefined : join(top, relative(journal.top, journal.root));
  // a run that outlived the check would write over the work about to go back
  if (root !== undefined && journal.pid !== process.pid) {
    await stopLeftRuns(root, journal.pid, journal.started);
  }
  const done = putBack(dir, journal, { top, keptRoot });
  // a check killed before it set anything aside (it holds the folder from its start)
  if (journal.tracked.length === 0 && journal.untracked.length === 0) return { status: "nothing" };
  const moved =
    top === journal.top ? "" : ` (in ${top}; the repository was at ${journal.top} then)`;
  const lines = [
    `cpilot: put back ${done.restored} file${done.restored === 1 ? "" : "s"} an interrupted \`cpilot check --staged\` (pid ${journal.pid}, ${journal.createdAt}) had set aside${moved}: your unstaged and untracked work is as it was`,
  ];
  if (done.kept.length > 0) {
    lines.push(
      `cpilot: what callbacks had written over ${done.kept.length} of them is kept in ${done.keptDir}`,
    );
  }
  for (const { path, keptAt } of done.later) {
    lines.push(`cpilot: kept your later edit of ${path} as ${keptAt}`);
  }
  return { status: "restored", lines };
}

function sameFolder(gitDir: string, journal: Journal): boolean {
  const id = folderId(gitDir);
  if (id === null) return false;
  if (journal.gitDirId === undefined) {
    const then = findRepository(journal.top, {})?.gitDir;
    return then !== undefined && realOr(then) === realOr(gitDir);
  }
  return id.dev === journal.gitDirId.dev && id.ino === journal.gitDirId.ino;
}

/** Where the journal says while its git folder is this one, else (moved) the one around `cwd`. */
function workTree(gitDir: string, journal: Journal, cwd: string): string | null {
  const id = folderId(gitDir);
  const same = (dir: string | undefined): boolean => {
    const other = dir === undefined ? null : folderId(dir);
    return other !== null && id !== null && other.dev === id.dev && other.ino === id.ino;
  };
  if (same(findRepository(journal.top, {})?.gitDir)) return journal.top;
  // found from where this call runs: a GIT_DIR alone names no work tree
  const here = findRepository(cwd, {});
  return here?.top != null && same(here.gitDir) ? here.top : null;
}

/** Set-aside work in another git folder than its own: nothing is put back or written outside it; the files are kept here. */
function foreign(dir: string, journal: Journal, keptRoot: string): Recovery {
  const to = join(keptRoot, `from-elsewhere-${Date.now()}`);
  mkdirSync(keptRoot, { recursive: true });
  renameSync(dir, to);
  const count = journal.tracked.length + journal.untracked.length;
  if (count === 0) {
    rmSync(to, { recursive: true, force: true });
    return { status: "nothing" };
  }
  return {
    status: "foreign",
    lines: [
      `cpilot: found ${count} file${count === 1 ? "" : "s"} an interrupted \`cpilot check --staged\` set aside in ${journal.top} (pid ${journal.pid}, ${journal.createdAt}), not in this repository: this is a copy of it, or it moved to another disk. Not put back; kept in ${to}`,
      `hint: tracked/ holds the working copies of tracked files and untracked/ untracked files, by their paths in the work tree; copy back what you need (the work tree holds the staged versions of the tracked ones)`,
    ],
  };
}
