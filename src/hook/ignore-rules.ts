import { lstatSync, readFileSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { type GitEnv, runGit, splitNul } from "../match/git.ts";

/**
 * New ignore rules hide a new file from `git status`, so from every later look at the
 * project: the agent's shell can point `core.excludesFile` at a list of its own, add a line
 * to a `.gitignore` (tracked or not, ignoring itself or not), to `.git/info/exclude` or to
 * the excludes file. What the ignore rules were when the turn started is kept here, so later
 * looks can undo them: the excludes file is pinned to its value then, and the files that a
 * rule added since hides (or that a rule removed since no longer lets through) are listed.
 */
export interface TurnRules {
  /** When the turn started (ms since the epoch): files changed since are the turn's. */
  readonly at: number;
  /** `core.excludesFile` as it was then ("" when git reads none), kept for every look. */
  readonly excludesFile: string;
  /** HEAD then: a `.gitignore` git listed as unchanged held what this commit holds. */
  readonly head: string | null;
  /**
   * The rule files that git did not hold unchanged then (listed by `git status`, ignored,
   * or not in git: the info/exclude list, the excludes file, the `.gitignore` files above
   * the project), by absolute path: their text then, or null when absent.
   */
  readonly rules: Readonly<Record<string, string | null>>;
}

/** The git settings every look at the project keeps from the turn's start. */
export type Pinned = readonly [readonly [string, string]];

export function pinned(excludesFile: string): Pinned {
  return [["core.excludesFile", excludesFile]];
}

/**
 * `core.excludesFile` now, or the person's own list git reads when it is not set, named as
 * git names it: under a non-empty `$XDG_CONFIG_HOME`, else under `$HOME/.config` (empty
 * HOME included); "" when HOME is not set either, as git then reads none.
 */
export function excludesFileNow(root: string, env: GitEnv = {}): string {
  const r = runGit(root, ["config", "--path", "core.excludesFile"], env);
  const set = r.ok ? r.stdout.replace(/\n$/, "") : "";
  if (set !== "") return set;
  const xdg = process.env.XDG_CONFIG_HOME;
  if (xdg) return `${xdg}/git/ignore`;
  const home = process.env.HOME;
  return home === undefined ? "" : `${home}/.config/git/ignore`;
}

/** A rule file's text, or null when it is absent or not a file. */
export function ruleText(path: string): string | null {
  try {
    const st = lstatSync(path);
    if (!st.isFile()) return null;
    return st.size > MAX_RULES ? TOO_LARGE : readFileSync(path, "utf8");
  } catch {
    return null;
  }
}

/** A rule file too large to keep: every rule in it counts as new. */
const TOO_LARGE = "\0too large";
const MAX_RULES = 1024 * 1024;

/** Where git runs and what it reads the ignore rules from, for one look. */
export interface RulesLook {
  /** The project root: every path found is relative to it. */
  readonly root: string;
  /** The work tree's top: `.gitignore` names in git's answers are relative to it. */
  readonly top: string;
  readonly env: GitEnv;
  /** The rule files this look found (absolute paths), with their text now. */
  readonly now: Readonly<Record<string, string | null>>;
  /** The text a file held in `commit` (its path relative to the top), or null. */
  committedText(commit: string, topRel: string): string | null;
  /** The `.gitignore` files a commit made since the turn started changed (absolute paths). */
  committedRules(from: string): string[];
}

interface ChangedRule {
  /**
   * How many of its rules it held then, when those are still its first ones (rules were
   * only added after them); null when rules were removed, reordered or cannot be known:
   * then anything it applies to may be hidden by the change.
   */
  readonly kept: number | null;
  /** Each line's rule number (blank lines and comments are no rule: -1). */
  readonly ruleAt: readonly number[];
  /** What it applies to, relative to the root ("." the whole project), or null: nothing in it. */
  readonly scope: string | null;
}

const ASKED_AT_ONCE = 500;

/**
 * The files changed since the turn started that git ignores now by a rule added since (or
 * that a rule removed since let through): these are the agent's, whatever git says. A file
 * an unchanged rule ignores (a build output the project's own rules ignored) is not.
 */
export function hiddenByNewRules(look: RulesLook, turn: TurnRules): string[] {
  const changed = changedRules(look, turn);
  if (changed.size === 0) return [];
  const scopes = new Set<string>();
  for (const rule of changed.values()) if (rule.scope !== null) scopes.add(rule.scope);
  if (scopes.size === 0) return [];
  // An ignored folder comes as one entry: one an unchanged rule ignores is not walked.
  const entries = ignoredIn(look, ["--directory", "--", ...narrowest(scopes)]);
  if (entries === null) return [];
  const since = (rel: string) => changedSince(look.root, rel, turn.at);
  const dirs = entries.filter((rel) => rel.endsWith("/")).map((rel) => rel.slice(0, -1));
  const found = newlyIgnored(
    look,
    changed,
    entries.filter((rel) => !rel.endsWith("/") && since(rel)),
  );
  for (const dir of newlyIgnored(look, changed, dirs))
    found.push(...(ignoredIn(look, ["--", `${dir}/`]) ?? []).filter(since));
  return found;
}

/** What `git ls-files` lists as ignored and not in git, with `args`; null when git fails. */
function ignoredIn(look: RulesLook, args: readonly string[]): string[] | null {
  const r = runGit(
    look.root,
    ["ls-files", "-z", "-o", "-i", "--exclude-standard", ...args],
    look.env,
  );
  return r.ok ? splitNul(r.stdout) : null;
}

/** Which of `paths` (files or folders) a rule added since ignores. */
function newlyIgnored(
  look: RulesLook,
  changed: ReadonlyMap<string, ChangedRule>,
  paths: readonly string[],
): string[] {
  const found: string[] = [];
  for (let at = 0; at < paths.length; at += ASKED_AT_ONCE) {
    const some = paths.slice(at, at + ASKED_AT_ONCE);
    // Paths, not pathspecs: "./" keeps a name that starts with ":" from being read as magic.
    const why = runGit(
      look.root,
      [
        "-c",
        "core.quotePath=false",
        "check-ignore",
        "-v",
        "--non-matching",
        "--",
        ...some.map((rel) => `./${rel}`),
      ],
      { ...look.env, GIT_LITERAL_PATHSPECS: "0" },
    );
    // One line per path, in order: `<rule's file>:<line>:<pattern>\t<path>`. An answer
    // that cannot be read counts every path as hidden by the new rules: checked, not missed.
    const lines = why.stdout.split("\n").filter((line) => line !== "");
    some.forEach((rel, i) => {
      const line = lines.length === some.length ? (lines[i] as string) : "";
      if (byNewRule(look, changed, rel, line)) found.push(rel);
    });
  }
  return found;
}

/** The rule files whose text differs from the turn's start, by absolute path. */
function changedRules(look: RulesLook, turn: TurnRules): Map<string, ChangedRule> {
  const paths = new Set([...Object.keys(turn.rules), ...Object.keys(look.now)]);
  if (turn.head !== null) for (const path of look.committedRules(turn.head)) paths.add(path);
  const changed = new Map<string, ChangedRule>();
  for (const path of paths) {
    const then =
      path in turn.rules
        ? (turn.rules[path] ?? null)
        : turn.head === null
          ? null
          : look.committedText(turn.head, relative(look.top, path));
    const now = path in look.now ? (look.now[path] ?? null) : ruleText(path);
    if (then === now) continue;
    changed.set(path, { ...compared(then, now), scope: scopeOf(look, path) });
  }
  return changed;
}

function compared(then: string | null, now: string | null): Omit<ChangedRule, "scope"> {
  const lines = now === null || now === TOO_LARGE ? [] : now.split("\n");
  let n = 0;
  const ruleAt = lines.map((line) => (isRule(line) ? n++ : -1));
  if (then === TOO_LARGE || now === TOO_LARGE) return { kept: null, ruleAt };
  const before = (then ?? "").split("\n").filter(isRule);
  const after = lines.filter(isRule);
  const prefix = before.every((rule, i) => after[i] === rule);
  return { kept: prefix ? before.length : null, ruleAt };
}

function isRule(line: string): boolean {
  const text = line.trim();
  return text !== "" && !text.startsWith("#");
}

/** What a rule file applies to within the project, as a pathspec relative to the root. */
function scopeOf(look: RulesLook, path: string): string | null {
  if (basename(path) !== ".gitignore") return "."; // info/exclude, the excludes file
  const dir = relative(look.root, dirname(path));
  if (dir === "" || dir === ".." || dir.startsWith(`..${sep}`) || isAbsolute(dir)) {
    // A `.gitignore` above the root applies to the whole project; one beside it, to none.
    const up = relative(dirname(path), look.root);
    return up.startsWith(`..${sep}`) || up === ".." || isAbsolute(up) ? null : ".";
  }
  return `${dir}/`;
}

function narrowest(scopes: ReadonlySet<string>): string[] {
  return scopes.has(".") ? ["."] : [...scopes];
}

/**
 * True when the rule that ignores `rel` now (check-ignore's `line`) was added since the
 * turn started, or a rule file that applies to it lost a rule, or the answer cannot be read.
 */
function byNewRule(
  look: RulesLook,
  changed: ReadonlyMap<string, ChangedRule>,
  rel: string,
  line: string,
): boolean {
  const abs = join(look.root, rel);
  for (const [path, rule] of changed)
    if (rule.kept === null && covers(rule, path, abs)) return true;
  if (line === "" || line.startsWith('"') || line.startsWith("::")) return true;
  // The rule's file name may hold ":" itself: each `:<n>:` is tried as its end.
  for (const m of line.matchAll(/:(\d+):/g)) {
    const rule = changed.get(resolve(look.top, line.slice(0, m.index)));
    if (rule === undefined) continue;
    const at = rule.ruleAt[Number(m[1]) - 1];
    return rule.kept === null || at === undefined || at < 0 || at >= rule.kept;
  }
  return false;
}

function covers(rule: ChangedRule, path: string, abs: string): boolean {
  if (rule.scope === null) return false;
  if (rule.scope === "." || basename(path) !== ".gitignore") return true;
  return abs.startsWith(`${dirname(path)}${sep}`);
}

function changedSince(root: string, rel: string, at: number): boolean {
  const st = lstatSync(join(root, rel), { throwIfNoEntry: false });
  // A whole second back: some file systems keep coarser times than the clock.
  return st !== undefined && Math.max(st.ctimeMs, st.mtimeMs) >= at - 1000;
}

/** The turn's rules read back from its record, or undefined when they are not ones. */
export function validTurnRules(value: unknown): TurnRules | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { at, excludesFile, head, rules } = value as Record<string, unknown>;
  if (typeof at !== "number" || typeof excludesFile !== "string") return undefined;
  if (head !== null && typeof head !== "string") return undefined;
  if (typeof rules !== "object" || rules === null || Array.isArray(rules)) return undefined;
  if (!Object.values(rules).every((v) => v === null || typeof v === "string")) return undefined;
  return { at, excludesFile, head, rules: rules as Record<string, string | null> };
}
