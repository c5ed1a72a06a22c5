import { runGit } from "../match/git.ts";
import { dirname, existsSync, join, lstatSync, mkdirSync, writeFileSync } from "./byte-name-fs.ts";
import { readBlob } from "./file-blob.ts";
import { gitOnPaths } from "./git-paths.ts";
import { claimStage, type Journal, rewriteJournal } from "./journal.ts";
import { moveFile } from "./move.ts";
import { putBack } from "./restore.ts";
import { isSha256Entry, type Survey, type UnstagedChange } from "./survey.ts";
import { worktreeChanges } from "./worktree-changes.ts";

/**
 * Make the working tree hold exactly what will be committed: tracked files that differ from
 * the index and untracked files move into the stage folder, the index's versions in their
 * place. The journal is on disk before the first file moves; a failure half way puts back
 * what had moved. Null when another check holds the stage folder.
 */
export function setAside(
  top: string,
  dir: string,
  survey: Survey,
  root: string = top,
  options: { held?: boolean } = {},
): Journal | null {
  const unstaged = survey.unstaged.filter((c) => !(c.deleted && inTheWay(top, c.path)));
  const base = {
    version: 1 as const,
    top,
    root,
    createdAt: new Date().toISOString(),
    tracked: unstaged,
    untracked: survey.untracked,
    madeDirs: missingDirs(
      top,
      unstaged.filter((c) => c.deleted).map((c) => c.path),
    ),
  };
  if (options.held) rewriteJournal(dir, base);
  else if (!claimStage(dir, base)) return null;
  const journal: Journal = { ...base, pid: process.pid, started: null };
  try {
    for (const { path, deleted } of unstaged) {
      if (deleted) {
        const marker = join(dir, "deleted", path);
        mkdirSync(dirname(marker), { recursive: true });
        writeFileSync(marker, "");
      } else moveFile(join(top, path), join(dir, "tracked", path));
    }
    for (const path of survey.untracked) moveFile(join(top, path), join(dir, "untracked", path));
    // git writes the staged versions into the stage folder and cpilot renames them into place: a
    // git still at work after cpilot was killed cannot write over work already put back.
    const tracked = unstaged.map((c) => c.path);
    const fresh = join(dir, "checkout");
    const args = ["checkout-index", "-f", `--prefix=${fresh}/`];
    // the staged version, whatever the bits say (git would leave such a file out)
    if (tracked.some((p) => survey.bits.get(p)?.skipWorktree)) {
      args.push("--ignore-skip-worktree-bits");
    }
    gitOnPaths(top, args, tracked, "check out the staged version of files");
    for (const path of tracked) moveFile(join(fresh, path), join(top, path));
  } catch (err) {
    putBack(dir, journal, { top, keptRoot: join(dirname(dir), "kept") });
    throw err;
  }
  return journal;
}

/**
 * Staged files with assume-unchanged or skip-worktree whose working copy is not the staged
 * content: git's survey cannot see them, so they are set aside too; their bits never change.
 */
export function bitsToSetAside(top: string, survey: Survey): UnstagedChange[] {
  const listed = new Set(survey.unstaged.map((c) => c.path));
  const out: UnstagedChange[] = [];
  for (const path of survey.bits.keys()) {
    if (listed.has(path)) continue;
    const now = readBlob(join(top, path), isSha256Entry(survey.indexed.get(path) ?? ""));
    if (now.key === survey.indexed.get(path)) continue;
    out.push({ path, deleted: now.key === "absent" || now.key === "other" });
  }
  return out;
}

/** Of `paths`, those whose content git says is not the staged one (not a filter's doing, such as end of lines). */
export function notTheStaged(top: string, paths: readonly string[], survey: Survey): string[] {
  const plain = paths.filter((p) => !survey.bits.has(p));
  const out = worktreeChanges(top, plain, "compare the staged files with the index");
  for (const path of paths.filter((p) => survey.bits.has(p))) {
    // the file's blob through its filters, as `git add` makes it
    const args = ["hash-object", `--path=${path}`, "--", path];
    const r = runGit(top, args);
    if (
      !r.ok ||
      `${survey.indexed.get(path)?.split(" ")[0]} ${r.stdout.trim()}` !== survey.indexed.get(path)
    ) {
      out.push(path);
    }
  }
  return out;
}

/**
 * A deleted file whose place now holds something else (a folder, or a file where one of its
 * folders was): checking it out would delete that, so it stays out of the check.
 */
function inTheWay(top: string, path: string): boolean {
  const parts = path.split("/");
  // from the top down: below a missing folder nothing can be in the way
  for (let i = 1; i <= parts.length; i++) {
    const stat = lstatSync(join(top, ...parts.slice(0, i)), { throwIfNoEntry: false });
    if (stat === undefined) return false;
    if (i === parts.length || !stat.isDirectory()) return true;
  }
  return false;
}

function missingDirs(top: string, paths: readonly string[]): string[] {
  const missing = new Set<string>();
  for (const path of paths) {
    for (let dir = dirname(path); dir !== "." && !missing.has(dir); dir = dirname(dir)) {
      if (existsSync(join(top, dir))) break;
      missing.add(dir);
    }
  }
  return [...missing].sort((a, b) => b.split("/").length - a.split("/").length);
}
