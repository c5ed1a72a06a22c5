import { LocalStore } from "../cache/local-store.ts";
import { asCheckRecord, type CheckRecord } from "../cache/store.ts";
import type { EditBatch, Origin } from "../model/batch.ts";
import type { RemoteCache } from "../remote-cache/client.ts";
import type { Prepared } from "./batch-lookups.ts";

// The remote result cache behind the local one: keys the local store lacks are looked up
// remotely before a batch's runs start, and verified records land in the local store.

interface Opened {
  readonly cache: RemoteCache<CheckRecord> | null;
  pending: string[];
}

const opened = new Map<Origin["surface"], Opened>();

async function remoteFor(surface: Origin["surface"]): Promise<Opened> {
  let entry = opened.get(surface);
  if (entry === undefined) {
    const { openRemoteCache } = await import("../remote-cache/open.ts");
    const { cache, notices } = openRemoteCache<CheckRecord>(surface, asCheckRecord, {
      duration: (r) => r.durationMs,
    });
    entry = { cache, pending: [...notices] };
    opened.set(surface, entry);
  }
  return entry;
}

/** Look up remotely the runs the local store lacks; verified records go into `prepared`. Never throws, never waits past the remote's budget. */
export async function fetchRemoteResults(
  batch: EditBatch,
  prepared: readonly Prepared[],
): Promise<void> {
  if ((process.env.CPILOT_REMOTE_CACHE_URL ?? "") === "" || prepared.length === 0) return;
  const wanted = new Set<string>();
  for (const p of prepared)
    if (p.lookup !== null && p.lookup.record === undefined) wanted.add(p.lookup.key.key);
  if (wanted.size === 0) return;
  const { cache } = await remoteFor(batch.origin.surface);
  if (cache === null) return;
  const local = new LocalStore(batch.root);
  const found = await cache.getMany([...wanted]);
  for (const [key, record] of found) local.putSync(key, record);
  for (const p of prepared) {
    const record = p.lookup === null ? undefined : found.get(p.lookup.key.key);
    // as a local record: a fixer's is replayed only when it changed nothing
    if (p.lookup !== null && record !== undefined && record.changed.length === 0)
      p.lookup = { key: p.lookup.key, record };
  }
}

export function shareRemoteResult(surface: Origin["surface"], record: CheckRecord): void {
  void opened.get(surface)?.cache?.put(record.key, record);
}

/** Wait for the writes under way, and return what is to be said about the remote (once a process). */
export async function settleRemoteResults(surface: Origin["surface"]): Promise<string[]> {
  const entry = opened.get(surface);
  if (entry === undefined || entry.cache === null) {
    const said = entry?.pending ?? [];
    if (entry) entry.pending = [];
    return said;
  }
  await entry.cache.flush();
  const said = [...entry.pending, ...entry.cache.notices()];
  entry.pending = [];
  return said.filter((text) => !shown.has(text) && shown.add(text));
}

const shown = new Set<string>();
