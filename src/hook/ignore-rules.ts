import { lstatSync } from "node:fs";
import { dirname, join } from "node:path";
import { type GitEnv, runGit, splitNul } from "../match/git.ts";

/**
 * New ignore rules hide a new file from `git status`, so from every later look at the
 * project: the agent's shell can point `core.excludesFile` at a list of its own, or write a
 * `.gitignore` that ignores itself and the file. What the ignore rules were when the turn
 * started is kept here, so later looks can undo them: the excludes file is pinned to its
 * value then, and the files a `.gitignore` that is new or changed since hides are listed.
 */
export interface TurnRules {
  /** When the turn started (ms since the epoch): files changed since are the turn's. */
  readonly at: number;
  /** `core.excludesFile` as it was then (git's default list when unset), kept for every look. */
  readonly excludesFile: string;
  /** The `.gitignore` files `git status` does not list because they are ignored, by signature. */
  readonly hiddenRules: Readonly<Record<string, string>>;
}

/** The git settings every look at the project keeps from the turn's start. */
export type Pinned = readonly [readonly [string, string]];

export function pinned(excludesFile: string): Pinned {
  return [["core.excludesFile", excludesFile]];
}

/** `core.excludesFile` now, or the person's own list git reads when it is not set. */
export function excludesFileNow(root: string): string {
  const r = runGit(root, ["config", "--path", "core.excludesFile"]);
  const set = r.ok ? r.stdout.replace(/\n$/, "") : "";
  if (set !== "") return set;
  const xdg = process.env.XDG_CONFIG_HOME;
  const base = xdg ? xdg : join(process.env.HOME ?? "", ".config");
  return join(base, "git", "ignore");
}

const ASKED_AT_ONCE = 500;

/**
 * The files changed since the turn started that a `.gitignore` hides which is hidden itself
 * and new or changed since (a build output the project's own rules ignored stays
 * unlisted): these are the agent's, whatever git says.
 */
export function hiddenByNewRules(
  root: string,
  turn: TurnRules,
  now: Readonly<Record<string, string>>,
  gitEnv: () => GitEnv,
): string[] {
  const changed = Object.keys(now).filter((rel) => turn.hiddenRules[rel] !== now[rel]);
  if (changed.length === 0) return [];
  const env = gitEnv();
  const newRules = new Set(changed);
  const found: string[] = [];
  for (const rule of changed) {
    const dir = dirname(rule);
    const listed = runGit(
      root,
      ["ls-files", "-z", "-o", "-i", "--exclude-standard", "--", dir === "." ? "." : `${dir}/`],
      env,
    );
    if (!listed.ok) continue;
    const files = splitNul(listed.stdout).filter((rel) => changedSince(root, rel, turn.at));
    if (files.length === 0) continue;
    for (let at = 0; at < files.length; at += ASKED_AT_ONCE) {
      const some = files.slice(at, at + ASKED_AT_ONCE);
      const why = runGit(
        root,
        ["-c", "core.quotePath=false", "check-ignore", "-v", "--non-matching", "--", ...some],
        env,
      );
      // One line per path, in order: `<rule's file>:<line>:<pattern>\t<path>`. An answer
      // that cannot be read counts every path as hidden by the new rules: checked, not missed.
      const lines = why.stdout.split("\n").filter((line) => line !== "");
      some.forEach((rel, i) => {
        const line = lines.length === some.length ? (lines[i] as string) : "";
        if (!byUnchangedRule(line, newRules)) found.push(rel);
      });
    }
  }
  return [...new Set(found)];
}

/**
 * True when check-ignore's line names a rule file that is not new: its own `.gitignore`
 * names come first, quoted when unusual (then not taken for an unchanged one).
 */
function byUnchangedRule(line: string, newRules: ReadonlySet<string>): boolean {
  if (line === "" || line.startsWith('"') || line.startsWith("::")) return false;
  for (const rule of newRules) if (line.startsWith(`${rule}:`)) return false;
  return true;
}

function changedSince(root: string, rel: string, at: number): boolean {
  const st = lstatSync(join(root, rel), { throwIfNoEntry: false });
  // A whole second back: some file systems keep coarser times than the clock.
  return st !== undefined && Math.max(st.ctimeMs, st.mtimeMs) >= at - 1000;
}

/** The turn's rules read back from its record, or undefined when they are not ones. */
export function validTurnRules(value: unknown): TurnRules | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { at, excludesFile, hiddenRules } = value as Record<string, unknown>;
  if (typeof at !== "number" || typeof excludesFile !== "string") return undefined;
  if (typeof hiddenRules !== "object" || hiddenRules === null || Array.isArray(hiddenRules))
    return undefined;
  if (!Object.values(hiddenRules).every((v) => typeof v === "string")) return undefined;
  return { at, excludesFile, hiddenRules: hiddenRules as Record<string, string> };
}
