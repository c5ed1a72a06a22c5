import { realpathSync } from "node:fs";
import { join } from "node:path";
import type { ResolvedConfig } from "../config/resolve.ts";
import { noteStateTrouble } from "../util/bookkeeping.ts";
import { lockDirSync } from "../util/dir-lock.ts";
import { openVerifiedDir } from "../util/verified-dir.ts";
import { validPlace } from "./git-place.ts";
import { validTurnRules } from "./ignore-rules.ts";
import { projectKey, recordDir } from "./record-dir.ts";
import { readSealed, writeSealed } from "./sealed-record.ts";
import type { TreeSnapshot } from "./tree-snapshot.ts";

/**
 * The turn's record as kept on disk: the project's files at the turn start, then the edit
 * tools' writes, sealed, one folder per work tree and session (./record-dir.ts).
 */

export const SNAPSHOT = "tree-snapshot.json";

export interface TurnRecord {
  readonly snap: TreeSnapshot;
  readonly mark?: string | undefined;
}

export type Loaded = { readonly kind: "none" | "forged" } | ({ readonly kind: "ok" } & TurnRecord);

/** null where no record can be kept safely: then none is trusted. */
export function recordsAt(config: ResolvedConfig, session: string): string | null {
  try {
    return recordDir(config.root, session);
  } catch (err) {
    noteStateTrouble(config.root, err);
    return null;
  }
}

export function otherRecords(root: string, session: string): string | null {
  try {
    return recordDir(root, session);
  } catch {
    return null; // that config's own calls say why
  }
}

export function saveRecord(
  config: ResolvedConfig,
  session: string,
  dir: string,
  rec: TurnRecord,
): void {
  const value = { root: projectKey(config.root), session, ...rec.snap, mark: rec.mark };
  writeSealed(join(dir, SNAPSHOT), value);
}

/** Line one is the snapshot, then edit-tool writes; a record for another place, or sealed by other hands, is forged. */
export function loadRecord(config: ResolvedConfig, session: string, dir: string): Loaded {
  const read = readSealed<Record<string, unknown>>(join(dir, SNAPSHOT));
  if (read.kind !== "ok") return read;
  const snap = read.value;
  if (typeof snap !== "object" || snap === null) return { kind: "forged" };
  if (snap.root !== projectKey(config.root) || snap.session !== session) return { kind: "forged" };
  const { files, head, mark } = snap;
  if (typeof files !== "object" || files === null || Array.isArray(files))
    return { kind: "forged" };
  if (!Object.values(files).every((v) => typeof v === "string")) return { kind: "forged" };
  if (head !== undefined && head !== null && typeof head !== "string") return { kind: "forged" };
  // No prototype: a file named `__proto__` is a key like any other.
  const folded: Record<string, string> = Object.assign(Object.create(null), files);
  for (const line of read.lines) {
    const note = line as { p?: unknown; s?: unknown } | null;
    if (typeof note?.p === "string" && typeof note.s === "string") folded[note.p] = note.s;
  }
  const turn = validTurnRules(snap.turn);
  const place = validPlace(snap.place);
  const at = snap.at;
  return {
    kind: "ok",
    snap: {
      files: folded,
      ...(head === undefined ? {} : { head: head as string | null }),
      ...(turn ? { turn } : {}),
      ...(place ? { place } : {}),
      ...(typeof at === "number" ? { at } : {}),
    },
    ...(typeof mark === "string" ? { mark } : {}),
  };
}

export function save(dir: string, name: string, value: unknown): void {
  writeSealed(join(dir, name), value);
}

/** `forged` when sealed by other hands. */
export function load<T>(dir: string, name: string): T | null | "forged" {
  const read = readSealed<T>(join(dir, name));
  return read.kind === "ok" ? read.value : read.kind === "none" ? null : "forged";
}

/** Hook calls may run at once: without the lock one's update is lost. */
export function locked<T>(dir: string, update: () => T): T {
  const handle = openVerifiedDir(realpathSync(dir), "");
  let unlock: (() => void) | undefined;
  try {
    unlock = lockDirSync(handle, "record.lock", 10_000);
    return update();
  } finally {
    unlock?.();
    handle.close();
  }
}
