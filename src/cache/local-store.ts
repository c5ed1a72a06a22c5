import { readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../util/atomic-write.ts";
import { readStateBytes } from "../util/state-file.ts";
import { existingGitCacheDir, gitCacheDir, madeGitCacheDir } from "./git-cache-dir.ts";
import { parseRecordText, recordText } from "./record-text.ts";
import { type CheckRecord, KEY_PATTERN, type ResultStore } from "./store.ts";

export const MAX_RECORDS = 2000;
export const MAX_TOTAL_BYTES = 64 * 1024 * 1024;
/** One record larger than this is not kept: a dense output is cheaper to run again. */
const MAX_RECORD_BYTES = 2 * 1024 * 1024;
/** Listing the folder on every put would cost more than it saves. */
const PRUNE_EVERY = 25;

/** `<git dir>/cpilot/cache/results/` (see git-cache-dir.ts); null outside git. */
export function resultsDir(root: string): string | null {
  return gitCacheDir(root, RESULTS);
}

const RESULTS = "results";

/** Check records, one file per key. Never throws: a missing or torn record is no record. */
export class LocalStore implements ResultStore {
  private puts = 0;

  constructor(private readonly root: string) {}

  async get(key: string): Promise<CheckRecord | undefined> {
    return this.getSync(key);
  }

  async put(key: string, record: CheckRecord): Promise<void> {
    this.putSync(key, record);
  }

  getSync(key: string): CheckRecord | undefined {
    const dir = existingGitCacheDir(this.root, RESULTS);
    if (!KEY_PATTERN.test(key) || dir === null) return undefined;
    const bytes = readStateBytes(join(dir, `${key}.json`), MAX_RECORD_BYTES);
    return bytes === null ? undefined : parseRecordText(bytes, key);
  }

  putSync(key: string, record: CheckRecord): boolean {
    if (!KEY_PATTERN.test(key) || record.key !== key) return false;
    const text = recordText(record);
    if (text.length > MAX_RECORD_BYTES) return false;
    try {
      const dir = madeGitCacheDir(this.root, RESULTS);
      writeFileAtomic(join(dir, `${key}.json`), text, { durable: false });
      if (++this.puts % PRUNE_EVERY === 1) pruneResults(this.root);
      return true;
    } catch {
      return false;
    }
  }
}

export interface StoredResult {
  readonly key: string;
  readonly bytes: number;
  readonly mtimeMs: number;
}

export function listResults(root: string): StoredResult[] {
  const dir = existingGitCacheDir(root, RESULTS);
  if (dir === null) return [];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const out: StoredResult[] = [];
  for (const name of names) {
    const key = name.endsWith(".json") ? name.slice(0, -5) : "";
    if (!KEY_PATTERN.test(key)) continue;
    const st = statSync(join(dir, name), { throwIfNoEntry: false });
    if (st?.isFile()) out.push({ key, bytes: st.size, mtimeMs: st.mtimeMs });
  }
  return out.sort((a, b) => b.mtimeMs - a.mtimeMs);
}

export function pruneResults(
  root: string,
  maxRecords = MAX_RECORDS,
  maxBytes = MAX_TOTAL_BYTES,
): number {
  const dir = existingGitCacheDir(root, RESULTS);
  if (dir === null) return 0;
  let kept = 0;
  let bytes = 0;
  let dropped = 0;
  for (const r of listResults(root)) {
    if (kept < maxRecords && bytes + r.bytes <= maxBytes) {
      kept++;
      bytes += r.bytes;
      continue;
    }
    rmSync(join(dir, `${r.key}.json`), { force: true });
    dropped++;
  }
  return dropped;
}
