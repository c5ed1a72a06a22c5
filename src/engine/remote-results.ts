import { definitionKey } from "../cache/key.ts";
import { LocalStore } from "../cache/local-store.ts";
import { runKey } from "../cache/run-key.ts";
import { asCheckRecord, type CheckRecord } from "../cache/store.ts";
import type { EditBatch, Origin } from "../model/batch.ts";
import type { RemoteCache } from "../remote-cache/client.ts";
import type { PlannedRun } from "./plan.ts";
import { batchProject, cacheable, ownFileOf } from "./result-cache.ts";
import { checksWholeProject } from "./run-scope.ts";

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
 * Look up remotely the planned runs the local store has no record of; records that come
 * back verified are kept locally, so the runs replay them. Never throws, never waits past
 * the remote's budget.
 */
export async function fetchRemoteResults(
  batch: EditBatch,
  planned: readonly PlannedRun[],
): Promise<void> {
  // most calls (every hook call on a machine without a remote) stop here
  if ((process.env.CPILOT_REMOTE_CACHE_URL ?? "") === "" || planned.length === 0) return;
  const { cache } = await remoteFor(batch.origin.surface);
  if (cache === null) return;
  const root = batch.root;
  const local = new LocalStore(root);
  const wanted: string[] = [];
  const definitions = new Map<PlannedRun["callback"], string>();
  for (const p of planned) {
    const whole = checksWholeProject(p.callback.run);
    if (!cacheable(p.callback, false, whole)) continue;
    let definition = definitions.get(p.callback);
    if (definition === undefined) {
      definition = definitionKey(root, p.callback);
      definitions.set(p.callback, definition);
    }
    const own = ownFileOf(p.callback);
    const key = runKey(root, definition, p.files, whole, own, batchProject(batch, root));
    if (key !== null && local.getSync(key.key) === undefined) wanted.push(key.key);
  }
  if (wanted.length === 0) return;
  for (const [key, record] of await cache.getMany(wanted)) local.putSync(key, record);
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
