import { lstatSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { hookFiles } from "../config/hook-files.ts";
import type { ResolvedConfig } from "../config/resolve.ts";
import { ownConfigKind } from "../gate/own-config.ts";
import { isCpilotPath, isGitPath, secretKind } from "../gate/protected.ts";
import { checkPath } from "../gate/rules.ts";
import type { FileChange } from "../model/batch.ts";
import { resolveGateConfig } from "../model/gate-schema.ts";
import { recordsHome } from "../platform/runtime-dir.ts";
import { bookkeep, noteStateTrouble } from "../util/bookkeeping.ts";
import { findRepository } from "../util/git-dir.ts";
import { placeChanges, placeMark } from "./git-place.ts";
import { nestedStateFilter } from "./nested-state.ts";
import { appendSealed } from "./sealed-record.ts";
import { compareSnapshots } from "./snapshot-compare.ts";
import { tamperingIn } from "./tamper-command.ts";
import {
  ABSENT,
  type ProtectedKind,
  signature,
  type TreeSnapshot,
  takeSnapshot,
} from "./tree-snapshot.ts";
import {
  enclosingConfigRoots,
  type Loaded,
  load,
  loadRecord,
  locked,
  otherRecords,
  recordsAt,
  SNAPSHOT,
  save,
  saveRecord,
  type TurnRecord,
} from "./turn-record-store.ts";

/**
 * Edits made without an edit tool: the project's files are recorded when the turn starts
 * and compared after each shell call and at the stop. The person's changes made before
 * the turn are in the record, so they stay theirs.
 */

const PROTECTED = "shell-protected.json";
const GIT_FAILS = "shell-git-fails.json";
/** Why the session's records are no longer trusted, once they are not. */
const DISTRUSTED = "distrusted.json";

/** null when the gate would simply allow it. */
export function protectedKind(config: ResolvedConfig): ProtectedKind {
  let gate: ReturnType<typeof resolveGateConfig>;
  try {
    gate = resolveGateConfig(config.source.gate);
  } catch {
    gate = resolveGateConfig({}); // a gate section that does not resolve: the built-in protections
  }
  return (rel) => {
    if (isCpilotPath(rel)) return null; // cpilot's own state, written by the hook itself
    if (isGitPath(rel)) return "git's own files";
    try {
      const verdict = checkPath(config.root, rel, gate);
      if (!verdict.ok) return verdict.reason;
      return verdict.hit.action === "allow" ? null : verdict.hit.reason;
    } catch (err) {
      return `the gate cannot decide: ${(err as Error).message}`;
    }
  };
}

/** Ignored secrets and config. */
function watchedName(name: string): boolean {
  return secretKind(name) !== null || ownConfigKind(name) !== null;
}

function hookSettings(): string[] {
  try {
    return [...hookFiles()];
  } catch {
    return [];
  }
}

/** Keeps from `was` what every later look keeps. */
function snapshotNow(
  config: ResolvedConfig,
  was: TreeSnapshot | null,
  newTurn = false,
): TreeSnapshot | null {
  return takeSnapshot(config.root, protectedKind(config), watchedName, hookSettings(), {
    ...(was?.turn ? { turn: was.turn } : {}),
    ...(was?.place ? { place: was.place } : {}),
    ...(was?.at !== undefined && !newTurn ? { since: was.at } : {}),
    newTurn,
  });
}

/** The snapshot, and what the pinned repository looked like at the session's first look. */
/** The pin's mark is kept from the session's first look. */
function markFor(was: Loaded, now: TreeSnapshot): string | undefined {
  if (was.kind === "ok" && was.mark !== undefined) return was.mark;
  return now.place ? placeMark(now.place, now.core) : undefined;
}

/** Keeps the ignore rules the session's record started with. */
export function recordTurnStart(config: ResolvedConfig, session: string): void {
  const dir = recordsAt(config, session);
  if (dir === null) return;
  locked(dir, () => {
    const was = loadRecord(config, session, dir);
    if (was.kind === "forged") distrust(dir, RECORD_FORGED);
    const snap = snapshotNow(config, was.kind === "ok" ? was.snap : null, true);
    if (snap !== null) saveRecord(config, session, dir, { snap, mark: markFor(was, snap) });
  });
}

/** Appends a few lines, whatever the project's size. A missing record stays missing. */
export function noteToolEdits(
  config: ResolvedConfig,
  session: string,
  files: readonly string[],
): void {
  if (files.length === 0) return;
  const isProtected = protectedKind(config);
  // the turn may have begun under a config above this one (the agent works from the top)
  const top = findRepository(config.root, {})?.top;
  const roots = [config.root, ...(top ? enclosingConfigRoots(config.root, top) : [])];
  for (const root of roots) {
    const dir = root === config.root ? recordsAt(config, session) : otherRecords(root, session);
    if (dir === null) continue;
    const path = join(dir, SNAPSHOT);
    locked(dir, () => {
      if (lstatSync(path, { throwIfNoEntry: false }) === undefined) return;
      appendSealed(
        path,
        files.map((file) => {
          const rel = relative(root, join(config.root, file));
          return { p: rel, s: signature(root, rel, isProtected(file) !== null) };
        }),
      );
    });
  }
}

interface ProtectedChange {
  readonly path: string;
  readonly why: string;
  readonly before: string;
}

export interface ShellEdits {
  readonly files: FileChange[];
  /** Already on disk: it must be reverted. */
  readonly protectedNotes: string[];
}

/**
 * Moves the record to now; call `settle` after the checks so a fixer's rewrite is not taken
 * for the agent's. `command`: the shell command's text, when the agent said it.
 */
export function shellEditsSince(
  config: ResolvedConfig,
  session: string,
  command?: string,
): ShellEdits {
  const found = shellEditsFound(config, session, command);
  const isState = nestedStateFilter(config.root);
  const files = found.files.filter((f) => !isState(f.path));
  return files.length === found.files.length ? found : { ...found, files };
}

function shellEditsFound(
  config: ResolvedConfig,
  session: string,
  command: string | undefined,
): ShellEdits {
  const dir = recordsAt(config, session);
  if (dir === null) {
    const now = snapshotNow(config, null);
    return now === null ? { files: [], protectedNotes: [] } : everyChange(config, now, NO_FOLDER);
  }
  const reached = command === undefined ? null : tamperingIn(command, privateFolder());
  if (reached !== null)
    bookkeep(config.root, undefined, () => distrust(dir, `your command ${reached}`));
  const [before, after] = recordMovedOn(config, session, dir);
  if (before.kind === "forged")
    bookkeep(config.root, undefined, () => distrust(dir, RECORD_FORGED));
  const moved = before.kind === "ok" ? placeMoved(before, after) : [];
  if (after === null) {
    if (before.kind === "none") return { files: [], protectedNotes: [] };
    bookkeep(config.root, undefined, () => save(dir, GIT_FAILS, true));
    return { files: [], protectedNotes: [...moved, GIT_FAILS_NOTE] };
  }
  const why =
    reached !== null
      ? `your command ${reached}`
      : before.kind === "forged"
        ? RECORD_FORGED
        : distrusted(dir);
  // Protected files are compared with the record still: one changed holds the stop either way.
  const since = before.kind === "ok" ? sinceRecord(config, dir, before.snap, after) : null;
  if (why !== null) {
    const fresh = reached !== null || before.kind === "forged";
    const found = everyChange(config, after, fresh ? distrustNote(why) : STILL_DISTRUSTED(why));
    const notes = [...moved, ...found.protectedNotes, ...(since?.protectedNotes ?? [])];
    return { files: found.files, protectedNotes: notes };
  }
  if (since === null) return everyChange(config, after, CANNOT_TELL);
  return { files: since.files, protectedNotes: [...moved, ...since.protectedNotes] };
}

/** What changed since the record; the protected files among them are kept until put back. */
function sinceRecord(
  config: ResolvedConfig,
  dir: string,
  before: TreeSnapshot,
  after: TreeSnapshot,
): ShellEdits {
  const isProtected = protectedKind(config);
  const files: FileChange[] = [];
  const found: ProtectedChange[] = [];
  for (const change of compareSnapshots(
    config.root,
    before,
    after,
    (rel) => isProtected(rel) !== null,
  )) {
    const why = isProtected(change.path);
    if (why !== null) found.push({ path: change.path, why, before: change.before });
    else files.push({ path: change.path, kind: change.kind });
  }
  const known = load<ProtectedChange[]>(dir, PROTECTED);
  const merged = Array.isArray(known) ? [...known] : [];
  for (const p of found) if (!merged.some((k) => k.path === p.path)) merged.push(p);
  if (found.length > 0) bookkeep(config.root, undefined, () => save(dir, PROTECTED, merged));
  return { files, protectedNotes: found.map((p) => protectedNote(config, p)) };
}

/** When the record cannot be locked or saved, the two are compared anyway: never missed. */
function recordMovedOn(
  config: ResolvedConfig,
  session: string,
  dir: string,
): readonly [Loaded, TreeSnapshot | null] {
  const move = () => {
    const was = loadRecord(config, session, dir);
    const now = snapshotNow(config, was.kind === "ok" ? was.snap : null);
    if (now !== null) saveRecord(config, session, dir, { snap: now, mark: markFor(was, now) });
    return [was, now] as const;
  };
  try {
    return locked(dir, move);
  } catch (err) {
    noteStateTrouble(config.root, err);
    const was = loadRecord(config, session, dir);
    return [was, snapshotNow(config, was.kind === "ok" ? was.snap : null)] as const;
  }
}

/** Notes when the repository the session's first look pinned is not what git reads there now. */
function placeMoved(rec: TurnRecord, look: TreeSnapshot | null = null): string[] {
  const place = rec.snap.place;
  if (place === undefined || rec.mark === undefined) return [];
  const now = placeMark(place, look?.core);
  if (now === rec.mark) return [];
  return [
    `cpilot: the repository cpilot was watching changed under it: ${placeChanges(rec.mark, now).join("; ")}. Put it back as it was (cpilot keeps checking ${place.top} against the repository at ${place.gitDir}); until then your stop is held. Do not move .git or change where git looks.`,
  ];
}

function distrust(dir: string, why: string): void {
  if (distrusted(dir) === null) save(dir, DISTRUSTED, why);
}

/** A flag sealed by other hands still says the records are not trusted. */
function distrusted(dir: string): string | null {
  const why = load<unknown>(dir, DISTRUSTED);
  if (why === null) return null;
  return typeof why === "string" ? why : RECORD_FORGED;
}

/** The base of the private folder, as a command would name it. */
function privateFolder(): string | null {
  const home = recordsHome(process.env);
  return home === null ? null : dirname(home);
}

const RECORD_FORGED = "cpilot's record of this session was changed by other hands";

const NO_FOLDER =
  "cpilot: cannot tell what your commands changed: cpilot has no private folder to keep its record of this turn in (it must be the user's own, mode 700). Every file that differs from git is checked as yours.";

const CANNOT_TELL =
  "cpilot: cannot tell what your commands changed: cpilot's record of this turn's start is missing or unreadable. Do not touch cpilot's files. Every file that differs from git is checked as yours; protected files you changed in this turn are not known, so put back any you wrote.";

function distrustNote(why: string): string {
  return `cpilot: ${why}, so cpilot can no longer tell your changes from the person's. From now on in this session every file that differs from git's HEAD (or is new and not ignored) is checked as yours, and your stop is held while a check on any of them fails. Leave cpilot's records, .git and where git looks alone.`;
}

const STILL_DISTRUSTED = (why: string): string =>
  `cpilot: every file that differs from git is checked as yours in this session (${why}).`;

/** Every file that differs from git is the agent's, and the agent is told why. */
function everyChange(config: ResolvedConfig, now: TreeSnapshot, note: string): ShellEdits {
  const isProtected = protectedKind(config);
  const files: FileChange[] = [];
  for (const change of compareSnapshots(config.root, { files: {} }, now))
    if (isProtected(change.path) === null) files.push({ path: change.path, kind: change.kind });
  return { files, protectedNotes: [note] };
}

/** Git fails now (config garbled, `.git` moved): the stop is held until it answers, with the record kept. */
const GIT_FAILS_NOTE =
  "cpilot: cannot tell what your commands changed: git fails in this repository now. Put back what your commands changed under .git (its config, HEAD, the .git folder itself); until git answers again, your edits are not checked.";

/** The turn goes on, so its ignore rules are kept. */
export function settle(config: ResolvedConfig, session: string): void {
  const dir = recordsAt(config, session);
  if (dir === null) return;
  locked(dir, () => {
    const was = loadRecord(config, session, dir);
    if (was.kind !== "ok") return;
    const snap = snapshotNow(config, was.snap);
    if (snap !== null) saveRecord(config, session, dir, { snap, mark: markFor(was, snap) });
  });
}

/** Those that still differ from what they held before (one put back is dropped), and a moved repository. */
export function protectedStillChanged(config: ResolvedConfig, session: string): string[] {
  const dir = recordsAt(config, session);
  if (dir === null) return [];
  const rec = loadRecord(config, session, dir);
  const moved = rec.kind === "ok" ? placeMoved(rec) : [];
  const known = load<ProtectedChange[]>(dir, PROTECTED);
  if (known === "forged") return [...moved, PROTECTED_FORGED];
  const gitFailed = load<boolean>(dir, GIT_FAILS) === true;
  if ((known === null || known.length === 0) && !gitFailed) return moved;
  const list = Array.isArray(known) ? known : [];
  const now = snapshotNow(config, rec.kind === "ok" ? rec.snap : null);
  if (gitFailed && now !== null) save(dir, GIT_FAILS, false);
  const open = list.filter((p) => !reverted(config, p, now));
  if (list.length > 0) save(dir, PROTECTED, open);
  const notes = [...moved, ...open.map((p) => protectedNote(config, p))];
  return gitFailed && now === null ? [GIT_FAILS_NOTE, ...notes] : notes;
}

const PROTECTED_FORGED =
  "cpilot: cpilot's record of the protected files you changed was changed by other hands, so it cannot tell which are still changed. Put back every protected file you wrote (.git, cpilot's config, secrets, files the gate protects).";

function reverted(config: ResolvedConfig, p: ProtectedChange, now: TreeSnapshot | null): boolean {
  if (p.before === "clean") return now !== null && now.files[p.path] === undefined;
  return signature(config.root, p.path, p.before.startsWith("h:")) === p.before;
}

const SHOWN_LINES = 20;

function protectedNote(config: ResolvedConfig, p: ProtectedChange): string {
  const now = signature(config.root, p.path, true);
  const head = `cpilot: a protected file was changed through the shell: ${p.path} (${p.why}). The change is already on disk and must be reverted: ${
    p.before === ABSENT
      ? "delete it"
      : p.before === "clean"
        ? `restore it (git checkout -- ${JSON.stringify(p.path)})`
        : "put back what it held before"
  }. Do not write protected files through the shell.`;
  if (now === ABSENT) return `${head}\nIt is now deleted.`;
  // A secret's bytes are not repeated into the conversation.
  if (secretKind(p.path) !== null || now.startsWith("h:link:")) return head;
  try {
    const lines = readFileSync(join(config.root, p.path), "utf8").split("\n");
    const shown = lines.slice(0, SHOWN_LINES).join("\n");
    const more = lines.length > SHOWN_LINES ? `\n… (${lines.length - SHOWN_LINES} more lines)` : "";
    return `${head}\nIt now holds:\n\`\`\`\n${shown}${more}\n\`\`\``;
  } catch {
    return head;
  }
}
