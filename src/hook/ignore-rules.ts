import { lstatSync, readFileSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import ignore from "ignore";
import { type GitEnv, runGit, splitNul } from "../match/git.ts";

/**
 * New ignore rules hide a new file from `git status`: the shell can point
 * `core.excludesFile` elsewhere or add lines to a `.gitignore`, `.git/info/exclude` or the
 * excludes file. The rules at the turn's start are kept so later looks can undo that.
 */
export interface TurnRules {
  /** Files changed since are the turn's. */
  readonly at: number;
  /** "" when git reads none; pinned for every look. */
  readonly excludesFile: string;
  /** A `.gitignore` git listed as unchanged held what this commit holds. */
  readonly head: string | null;
  /** Rule files git did not hold unchanged then, by absolute path: their text then, or null when absent. */
  readonly rules: Readonly<Record<string, string | null>>;
}

export type Pinned = readonly [readonly [string, string]];

export function pinned(excludesFile: string): Pinned {
  return [["core.excludesFile", excludesFile]];
}

/** Unset: git's default per-user list; "" when HOME is not set either (git reads none). */
export function excludesFileNow(root: string, env: GitEnv = {}): string {
  const r = runGit(root, ["config", "--path", "core.excludesFile"], env);
  const set = r.ok ? r.stdout.replace(/\n$/, "") : "";
  if (set !== "") return set;
  const xdg = process.env.XDG_CONFIG_HOME;
  if (xdg) return `${xdg}/git/ignore`;
  const home = process.env.HOME;
  return home === undefined ? "" : `${home}/.config/git/ignore`;
}

export function ruleText(path: string): string | null {
  try {
    const st = lstatSync(path);
    if (!st.isFile()) return null;
    return st.size > MAX_RULES ? TOO_LARGE : readFileSync(path, "utf8");
  } catch {
    return null;
  }
}

/** Every rule in a file too large to keep counts as new. */
const TOO_LARGE = "\0too large";
const MAX_RULES = 1024 * 1024;

export interface RulesLook {
  readonly root: string;
  /** `.gitignore` names in git's answers are relative to it. */
  readonly top: string;
  readonly env: GitEnv;
  /** Absolute paths, with their text now. */
  readonly now: Readonly<Record<string, string | null>>;
  committedText(commit: string, topRel: string): string | null;
  /** Absolute paths. */
  committedRules(from: string): string[];
}

interface ChangedRule {
  /** Rules it held then, while those are still its first ones; null: anything it covers may be hidden. */
  readonly kept: number | null;
  /** -1 for blank lines and comments. */
  readonly ruleAt: readonly number[];
  /** Relative to the root ("." the whole project); null: nothing in it. */
  readonly scope: string | null;
  /** Its text at the turn's start (null: absent). */
  readonly then: string | null;
}

const ASKED_AT_ONCE = 500;

/** Files changed this turn that a rule added since hides: the agent's, whatever git says. */
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
    false,
  );
  for (const dir of newlyIgnored(look, changed, dirs, true))
    found.push(...(ignoredIn(look, ["--", `${dir}/`]) ?? []).filter(since));
  return found;
}

/** null when git fails. */
function ignoredIn(look: RulesLook, args: readonly string[]): string[] | null {
  const r = runGit(
    look.root,
    ["ls-files", "-z", "-o", "-i", "--exclude-standard", ...args],
    look.env,
  );
  return r.ok ? splitNul(r.stdout) : null;
}

function newlyIgnored(
  look: RulesLook,
  changed: ReadonlyMap<string, ChangedRule>,
  paths: readonly string[],
  dirs: boolean,
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
    // `<rule's file>:<line>:<pattern>\t<path>`, one per path in order. An unreadable answer
    // counts every path as hidden by the new rules: checked, not missed.
    const lines = why.stdout.split("\n").filter((line) => line !== "");
    some.forEach((rel, i) => {
      const line = lines.length === some.length ? (lines[i] as string) : "";
      if (byNewRule(look, changed, rel, line, dirs)) found.push(rel);
    });
  }
  return found;
}

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
    changed.set(path, { ...compared(then, now), scope: scopeOf(look, path), then });
  }
  return changed;
}

function compared(then: string | null, now: string | null): Omit<ChangedRule, "scope" | "then"> {
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

/** Or the answer cannot be read. */
function byNewRule(
  look: RulesLook,
  changed: ReadonlyMap<string, ChangedRule>,
  rel: string,
  line: string,
  dir: boolean,
): boolean {
  const abs = join(look.root, rel);
  for (const [path, rule] of changed)
    if (rule.kept === null && covers(rule, path, abs)) return true;
  if (line === "" || line.startsWith('"') || line.startsWith("::")) return true;
  // The rule's file name may hold ":" itself: each `:<n>:` is tried as its end.
  for (const m of line.matchAll(/:(\d+):/g)) {
    const file = resolve(look.top, line.slice(0, m.index));
    const rule = changed.get(file);
    if (rule === undefined) continue;
    const at = rule.ruleAt[Number(m[1]) - 1];
    if (rule.kept !== null && at !== undefined && at >= 0 && at < rule.kept) return false;
    // A new rule decides now; the file's old rules (the ones before it) may have hidden it already.
    return rule.kept === null || !ignoredThen(look, file, rule.then, abs, dir);
  }
  return false;
}

/** By the rule file's text at the turn's start alone, read as git reads it. */
function ignoredThen(
  look: RulesLook,
  file: string,
  then: string | null,
  abs: string,
  dir: boolean,
): boolean {
  if (then === null || then === TOO_LARGE) return false;
  const base = basename(file) === ".gitignore" ? dirname(file) : look.top;
  const rel = relative(base, abs);
  if (rel === "" || rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return false;
  const posix = rel.split(sep).join("/");
  try {
    return ignore()
      .add(then)
      .ignores(dir ? `${posix}/` : posix);
  } catch {
    return false; // a path the matcher refuses: counted as new, checked rather than missed
  }
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

export function validTurnRules(value: unknown): TurnRules | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { at, excludesFile, head, rules } = value as Record<string, unknown>;
  if (typeof at !== "number" || typeof excludesFile !== "string") return undefined;
  if (head !== null && typeof head !== "string") return undefined;
  if (typeof rules !== "object" || rules === null || Array.isArray(rules)) return undefined;
  if (!Object.values(rules).every((v) => v === null || typeof v === "string")) return undefined;
  return { at, excludesFile, head, rules: rules as Record<string, string | null> };
}
