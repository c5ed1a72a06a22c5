import { readdirSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { randomHex } from "../platform/digest.ts";
import { writeFileAtomic } from "../util/atomic-write.ts";
import { isOwnStateDir, stateDir } from "../util/state-dir.ts";
import { readStateFile } from "../util/state-file.ts";
import { STATE, statePath } from "../util/state-layout.ts";
import { sessionFolderName } from "./folder-name.ts";

/**
 * Messages waiting for an agent's next hook or MCP call, one file each under
 * `.cpilot/inbox/<session>/`. Taking one renames it first, so concurrent hooks never deliver
 * it twice.
 */
export interface Notice {
  readonly id: string;
  readonly kind: string;
  readonly text: string;
  readonly createdAt: number;
  readonly runId?: string;
  /** Blocks Stop while unread. */
  readonly failing?: boolean;
}

/** Taken by whichever session asks first. */
export const ANY_SESSION = "_any";

function safeSession(session: string): string {
  return sessionFolderName(session, ANY_SESSION);
}

function inboxDir(root: string, session: string): string {
  return statePath(root, STATE.inbox, safeSession(session));
}

export function postNotice(
  root: string,
  session: string,
  notice: Omit<Notice, "id" | "createdAt">,
): string {
  const dir = stateDir(root, STATE.inbox, safeSession(session));
  const createdAt = Date.now();
  // The monotonic clock is shared by every process and fine enough to keep posting order.
  const id = `${process.hrtime.bigint().toString().padStart(20, "0")}-${randomHex(4)}`;
  writeFileAtomic(join(dir, `${id}.json`), JSON.stringify({ ...notice, id, createdAt }));
  return id;
}

function noticeNames(dir: string): string[] | null {
  try {
    return readdirSync(dir).filter((n) => n.endsWith(".json") && !n.startsWith("."));
  } catch {
    return null;
  }
}

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
        // not one cpilot posted (or torn): it must not stop the rest
        if (isNotice(notice)) taken.push(notice);
      } catch {
        // torn: dropped
      }
      rmSync(claimed, { force: true });
    }
  }
  return taken.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

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
