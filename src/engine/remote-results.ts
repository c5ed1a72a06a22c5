import { LocalStore } from "../cache/local-store.ts";
import { asCheckRecord, type CheckRecord } from "../cache/store.ts";
import type { EditBatch, Origin } from "../model/batch.ts";
import type { RemoteCache } from "../remote-cache/client.ts";
import type { Prepared } from "./batch-lookups.ts";

// The remote result cache behind the local one: before a batch's runs start, the keys the
// local store lacks are looked up remotely at once (one batch query where the server has
// one), and what comes back verified lands in the local store, where each run finds it.
// A run recorded locally is shared too, where this process may write.

interface Opened {
  readonly cache: RemoteCache<CheckRecord> | null;
  /** What is still to be said about it (once a process). */
  pending: string[];
}

/** One remote per surface a process serves: the environment does not change under it. */
const opened = new Map<Origin["surface"], Opened>();

/** The surface's remote, opened on first use; its code is loaded only when one is configured. */
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

/**
 * Look up remotely the planned runs the local store has no record of (their keys made once,
 * in `prepared`); records that come back verified are kept locally and put in `prepared`,
 * so the runs replay them. Never throws, never waits past the remote's budget.
 */
export async function fetchRemoteResults(
  batch: EditBatch,
  prepared: readonly Prepared[],
): Promise<void> {
  // most calls (every hook call on a machine without a remote) stop here
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

/** Share a run's new local record with the remote, where this process may write. */
export function shareRemoteResult(surface: Origin["surface"], record: CheckRecord): void {
  void opened.get(surface)?.cache?.put(record.key, record);
}

/**
 * Wait for the writes under way (each ends within its timeout), and what is to be said
 * about the remote this time: its trouble, once a process.
 */
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
