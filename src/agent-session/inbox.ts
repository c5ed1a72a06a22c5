import { readdirSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { randomHex } from "../platform/digest.ts";
import { writeFileAtomic } from "../util/atomic-write.ts";
import { isOwnStateDir, stateDir } from "../util/state-dir.ts";
import { readStateFile } from "../util/state-file.ts";
import { STATE, statePath } from "../util/state-layout.ts";
import { sessionFolderName } from "./folder-name.ts";

/**
 * Messages waiting for an agent's next hook or MCP call: a background run's result, a
 * trigger's notify. One file per notice under `.cpilot/inbox/<session>/`; taking a
 * notice renames it first, so concurrent hook processes never deliver it twice and a
 * crash between take and delivery loses at most what was being printed.
 */
export interface Notice {
  readonly id: string;
  readonly kind: string;
  /** What the agent should read. */
  readonly text: string;
  readonly createdAt: number;
  /** The run it is about, if any. */
  readonly runId?: string;
  /** Was this about a failure the agent should fix (blocks Stop while unread)? */
  readonly failing?: boolean;
}

/** Notices for no particular session go here and are taken by whichever session asks first. */
export const ANY_SESSION = "_any";

function safeSession(session: string): string {
  return sessionFolderName(session, ANY_SESSION);
}

function inboxDir(root: string, session: string): string {
  return statePath(root, STATE.inbox, safeSession(session));
}

/** Queue a notice for a session (or ANY_SESSION). Returns its id. */
export function postNotice(
  root: string,
  session: string,
  notice: Omit<Notice, "id" | "createdAt">,
): string {
  const dir = stateDir(root, STATE.inbox, safeSession(session));
  const createdAt = Date.now();
  // The monotonic clock is shared by every process on the machine, and fine enough that
  // notices posted in the same millisecond still sort in the order they were posted.
  const id = `${process.hrtime.bigint().toString().padStart(20, "0")}-${randomHex(4)}`;
  writeFileAtomic(join(dir, `${id}.json`), JSON.stringify({ ...notice, id, createdAt }));
  return id;
}

/** The notices waiting in one inbox folder (not those being taken); null when unreadable. */
function noticeNames(dir: string): string[] | null {
  try {
    return readdirSync(dir).filter((n) => n.endsWith(".json") && !n.startsWith("."));
  } catch {
    return null;
  }
}

/** Take every waiting notice of a session (and of ANY_SESSION), oldest first. */
export function takeNotices(root: string, session: string): Notice[] {
  const taken: Notice[] = [];
  for (const who of new Set([safeSession(session), ANY_SESSION])) {
    // taking a notice deletes it: only from cpilot's own folder, never through a symlink
    if (!isOwnStateDir(root, STATE.inbox, who)) continue;
    const dir = inboxDir(root, who);
    const names = noticeNames(dir);
    if (names === null) continue;
    for (const name of names.sort()) {
      const claimed = join(dir, `.${name}.${process.pid}-${randomHex(3)}.taken`);
      try {
        renameSync(join(dir, name), claimed);
      } catch {
        continue; // another process took it
      }
      try {
        const notice = JSON.parse(readStateFile(claimed) ?? "null") as unknown;
        // not one cpilot posted (or torn): it cannot be delivered, and must not stop the rest
        if (isNotice(notice)) taken.push(notice);
      } catch {
        // torn: dropped
      }
      rmSync(claimed, { force: true });
    }
  }
  return taken.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** Peek without taking: is a notice about a failure waiting for a session (or ANY_SESSION)? */
export function failingWaits(root: string, session: string): boolean {
  for (const who of new Set([safeSession(session), ANY_SESSION])) {
    const dir = inboxDir(root, who);
    const names = noticeNames(dir);
    if (names === null) continue;
    for (const name of names) {
      try {
        const notice = JSON.parse(readStateFile(join(dir, name)) ?? "null") as unknown;
        if (isNotice(notice) && notice.failing === true) return true;
      } catch {
        // taken meanwhile, or torn
      }
    }
  }
  return false;
}

/** Peek without taking: how many notices wait for a session. */
export function countNotices(root: string, session: string): number {
  return noticeNames(inboxDir(root, session))?.length ?? 0;
}

function isNotice(v: unknown): v is Notice {
  if (typeof v !== "object" || v === null) return false;
  const n = v as Record<string, unknown>;
  return (
    typeof n.id === "string" &&
    typeof n.kind === "string" &&
    typeof n.text === "string" &&
    typeof n.createdAt === "number" &&
    (n.runId === undefined || typeof n.runId === "string") &&
    (n.failing === undefined || typeof n.failing === "boolean")
  );
}
