import { lstatSync, readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { sessionDir } from "../agent-session/session-state.ts";
import { hookFiles } from "../config/hook-files.ts";
import type { ResolvedConfig } from "../config/resolve.ts";
import { ownConfigKind } from "../gate/own-config.ts";
import { isCpilotPath, isGitPath, secretKind } from "../gate/protected.ts";
import { checkPath } from "../gate/rules.ts";
import type { FileChange } from "../model/batch.ts";
import { resolveGateConfig } from "../model/gate-schema.ts";
import { writeFileAtomic } from "../util/atomic-write.ts";
import { bookkeep, noteStateTrouble } from "../util/bookkeeping.ts";
import { lockDirSync } from "../util/dir-lock.ts";
import { appendStateFile, readStateFile } from "../util/state-file.ts";
import { openVerifiedDir } from "../util/verified-dir.ts";
import { validPlace } from "./git-place.ts";
import { validTurnRules } from "./ignore-rules.ts";
import { compareSnapshots } from "./snapshot-compare.ts";
import {
  ABSENT,
  type ProtectedKind,
  signature,
  type TreeSnapshot,
  takeSnapshot,
} from "./tree-snapshot.ts";

/**
 * Edits made without an edit tool: the project's files are recorded when the turn starts
 * and compared after each shell call and at the stop. The person's changes made before
 * the turn are in the record, so they stay theirs.
 */

const SNAPSHOT = "tree-snapshot.json";
const PROTECTED = "shell-protected.json";
const GIT_FAILS = "shell-git-fails.json";

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

function save(config: ResolvedConfig, session: string, name: string, value: unknown): void {
  writeFileAtomic(join(sessionDir(config.root, session), name), JSON.stringify(value), {
    durable: false,
  });
}

/** Line one is the snapshot, then edit-tool writes; a cut line is skipped, so that file is rechecked. */
function loadSnapshot(config: ResolvedConfig, session: string): TreeSnapshot | null {
  const text = readStateFile(join(sessionDir(config.root, session), SNAPSHOT), MAX_RECORD);
  if (text === null) return null;
  const lines = text.split("\n");
  const snap = parsed(lines[0] ?? "");
  if (typeof snap !== "object" || snap === null) return null;
  const { files, head } = snap as { files?: unknown; head?: unknown };
  if (typeof files !== "object" || files === null || Array.isArray(files)) return null;
  if (!Object.values(files).every((v) => typeof v === "string")) return null;
  if (head !== undefined && head !== null && typeof head !== "string") return null;
  // No prototype: a file named `__proto__` is a key like any other.
  const folded: Record<string, string> = Object.assign(Object.create(null), files);
  for (const line of lines.slice(1)) {
    const note = parsed(line) as { p?: unknown; s?: unknown } | null;
    if (typeof note?.p === "string" && typeof note.s === "string") folded[note.p] = note.s;
  }
  const turn = validTurnRules((snap as { turn?: unknown }).turn);
  const place = validPlace((snap as { place?: unknown }).place);
  const at = (snap as { at?: unknown }).at;
  return {
    files: folded,
    ...(head === undefined ? {} : { head: head as string | null }),
    ...(turn ? { turn } : {}),
    ...(place ? { place } : {}),
    ...(typeof at === "number" ? { at } : {}),
  };
}

const MAX_RECORD = 64 * 1024 * 1024;

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function load<T>(config: ResolvedConfig, session: string, name: string): T | null {
  const text = readStateFile(join(sessionDir(config.root, session), name), MAX_RECORD);
  if (text === null) return null;
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
}

/** Hook calls may run at once: without the lock one's update is lost. */
function locked<T>(config: ResolvedConfig, session: string, update: () => T): T {
  const dir = openVerifiedDir(realpathSync(sessionDir(config.root, session)), "");
  let unlock: (() => void) | undefined;
  try {
    unlock = lockDirSync(dir, "record.lock", 10_000);
    return update();
  } finally {
    unlock?.();
    dir.close();
  }
}

/** Keeps the ignore rules the session's record started with. */
export function recordTurnStart(config: ResolvedConfig, session: string): void {
  locked(config, session, () => {
    const snap = snapshotNow(config, loadSnapshot(config, session), true);
    if (snap !== null) save(config, session, SNAPSHOT, snap);
  });
}

/** Appends a few lines, whatever the project's size. A missing record stays missing. */
export function noteToolEdits(
  config: ResolvedConfig,
  session: string,
  files: readonly string[],
): void {
  if (files.length === 0) return;
  const path = join(sessionDir(config.root, session), SNAPSHOT);
  const isProtected = protectedKind(config);
  locked(config, session, () => {
    if (lstatSync(path, { throwIfNoEntry: false }) === undefined) return;
    let lines = "";
    for (const rel of files) {
      const s = signature(config.root, rel, isProtected(rel) !== null);
      // Each line starts with its own newline: a line cut short before it stays one bad line.
      lines += `\n${JSON.stringify({ p: rel, s })}`;
    }
    appendStateFile(path, lines);
  });
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

/** Moves the record to now; call `settle` after the checks so a fixer's rewrite is not taken for the agent's. */
export function shellEditsSince(config: ResolvedConfig, session: string): ShellEdits {
  const [before, after] = recordMovedOn(config, session);
  if (after === null) {
    if (before === null) return { files: [], protectedNotes: [] };
    bookkeep(config.root, undefined, () => save(config, session, GIT_FAILS, true));
    return { files: [], protectedNotes: [GIT_FAILS_NOTE] };
  }
  if (before === null) return cannotTell(config, after);
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
  const known = load<ProtectedChange[]>(config, session, PROTECTED) ?? [];
  const merged = [...known];
  for (const p of found) if (!merged.some((k) => k.path === p.path)) merged.push(p);
  if (found.length > 0)
    bookkeep(config.root, undefined, () => save(config, session, PROTECTED, merged));
  return { files, protectedNotes: found.map((p) => protectedNote(config, p)) };
}

/** When the record cannot be locked or saved, the two are compared anyway: never missed. */
function recordMovedOn(
  config: ResolvedConfig,
  session: string,
): readonly [TreeSnapshot | null, TreeSnapshot | null] {
  try {
    return locked(config, session, () => {
      const was = loadSnapshot(config, session);
      const now = snapshotNow(config, was);
      if (now !== null) save(config, session, SNAPSHOT, now);
      return [was, now] as const;
    });
  } catch (err) {
    noteStateTrouble(config.root, err);
    const was = loadSnapshot(config, session);
    return [was, snapshotNow(config, was)] as const;
  }
}

/** Without a readable record, every file that differs from git is checked, and the agent is told why. */
function cannotTell(config: ResolvedConfig, now: TreeSnapshot): ShellEdits {
  const isProtected = protectedKind(config);
  const files: FileChange[] = [];
  for (const change of compareSnapshots(config.root, { files: {} }, now))
    if (isProtected(change.path) === null) files.push({ path: change.path, kind: change.kind });
  const note =
    "cpilot: cannot tell what your commands changed: cpilot's record of this turn's start is missing or unreadable. Do not touch cpilot's files. Every file that differs from git is checked as yours; protected files you changed in this turn are not known, so put back any you wrote.";
  return { files, protectedNotes: [note] };
}

/** Git fails now (config garbled, `.git` moved): the stop is held until it answers, with the record kept. */
const GIT_FAILS_NOTE =
  "cpilot: cannot tell what your commands changed: git fails in this repository now. Put back what your commands changed under .git (its config, HEAD, the .git folder itself); until git answers again, your edits are not checked.";

/** The turn goes on, so its ignore rules are kept. */
export function settle(config: ResolvedConfig, session: string): void {
  locked(config, session, () => {
    const snap = snapshotNow(config, loadSnapshot(config, session));
    if (snap !== null) save(config, session, SNAPSHOT, snap);
  });
}

/** Those that still differ from what they held before (one put back is dropped). */
export function protectedStillChanged(config: ResolvedConfig, session: string): string[] {
  const known = load<ProtectedChange[]>(config, session, PROTECTED) ?? [];
  const gitFailed = load<boolean>(config, session, GIT_FAILS) === true;
  if (known.length === 0 && !gitFailed) return [];
  const now = snapshotNow(config, loadSnapshot(config, session));
  if (gitFailed && now !== null) save(config, session, GIT_FAILS, false);
  const open = known.filter((p) => !reverted(config, p, now));
  if (known.length > 0) save(config, session, PROTECTED, open);
  const notes = open.map((p) => protectedNote(config, p));
  return gitFailed && now === null ? [GIT_FAILS_NOTE, ...notes] : notes;
}

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
