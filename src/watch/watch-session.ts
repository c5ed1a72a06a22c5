import { statSync } from "node:fs";
import { join } from "node:path";
import { agentSettings } from "../config/agent-settings.ts";
import type { ResolvedConfig } from "../config/resolve.ts";
import { createEngine } from "../engine/engine.ts";
import type { FileChange } from "../model/batch.ts";
import type { Outcome } from "../model/outcome.ts";
import { IgnoreFilter } from "./ignore-filter.ts";
import { quietBatcher } from "./quiet-batcher.ts";
import { renderResults, writeResults } from "./results-file.ts";
import { fileHash, Settled } from "./settled.ts";
import { vanishedStrangers } from "./transient-names.ts";
import { type TreeWatcher, watchTree } from "./tree-watcher.ts";

export const DEFAULT_QUIET_MS = 300;

export interface WatchSessionOptions {
  readonly config: ResolvedConfig;
  readonly quietMs?: number;
  /** Set as CP_AGENT for callbacks. */
  readonly agent?: string;
  readonly mode?: "per-dir" | "recursive";
  readonly onBatch?: (outcome: Outcome, resultsPath: string) => void;
  readonly onError?: (err: Error) => void;
  readonly signal?: AbortSignal;
}

export interface WatchSession {
  readonly batches: () => number;
  readonly watchCount: () => number;
  /** Runs what is still waiting, waits for a running batch, stops watching. */
  close(): Promise<void>;
}

/**
 * Changes gather until the tree is quiet; one batch runs at a time; a file that still
 * holds what the last runs left is not a change, so callbacks that rewrite files never
 * trigger themselves.
 */
export function startWatchSession(options: WatchSessionOptions): WatchSession {
  const { config } = options;
  const root = config.root;
  const engine = createEngine({ root, config });
  const settled = new Settled();
  const tailLines = agentSettings(config.source.agent).tailLines;
  const waiting = new Set<string>();
  let running: Promise<void> | null = null;
  let batches = 0;

  const runBatch = async (paths: string[]): Promise<void> => {
    const files: FileChange[] = [];
    const strangers = vanishedStrangers(root, paths, settled);
    for (const path of paths) {
      if (strangers.has(path) || isDirectory(join(root, path)) || settled.unchanged(root, path))
        continue;
      files.push({ path, kind: fileHash(root, path) === null ? "deleted" : "modified" });
    }
    if (files.length === 0) return;
    const batch = {
      root,
      files,
      origin: { surface: "watch" as const, ...(options.agent ? { agent: options.agent } : {}) },
    };
    const outcome = await engine.run(batch, {
      ...(options.signal ? { signal: options.signal } : {}),
      extraEnv: { CP_AGENT: options.agent ?? "watch" },
    });
    settled.record(root, [...files.map((f) => f.path), ...outcome.resyncs.map((r) => r.path)]);
    batches++;
    if (outcome.runs.length === 0) return;
    const path = writeResults(root, renderResults(outcome, { at: new Date(), tailLines }));
    options.onBatch?.(outcome, path);
  };

  const pump = (): void => {
    if (running !== null || waiting.size === 0) return;
    const paths = [...waiting].sort();
    waiting.clear();
    running = runBatch(paths)
      .catch((err: unknown) =>
        options.onError?.(err instanceof Error ? err : new Error(String(err))),
      )
      .finally(() => {
        running = null;
        pump();
      });
  };

  const batcher = quietBatcher({ quietMs: options.quietMs ?? DEFAULT_QUIET_MS }, (paths) => {
    for (const p of paths) waiting.add(p);
    pump();
  });
  const filter = new IgnoreFilter(root);
  let lastEvent = 0;
  const watcher: TreeWatcher = watchTree(
    root,
    filter,
    (rel) => {
      lastEvent = Date.now();
      batcher.add(rel);
    },
    {
      ...(options.mode ? { mode: options.mode } : {}),
      ...(options.onError ? { onError: options.onError } : {}),
    },
  );

  return {
    batches: () => batches,
    watchCount: () => watcher.watchCount(),
    async close() {
      // An agent that writes and exits at once: its last events are still in the kernel's
      // queue. Let the loop read them, until the tree has been quiet a moment (bounded).
      const deadline = Date.now() + CLOSE_SETTLE_MAX_MS;
      do {
        await new Promise((r) => setTimeout(r, CLOSE_SETTLE_MS / 2));
      } while (Date.now() - lastEvent < CLOSE_SETTLE_MS && Date.now() < deadline);
      batcher.flushNow();
      watcher.close();
      while (running !== null) await running;
      batcher.close();
    },
  };
}

const CLOSE_SETTLE_MS = 100;
const CLOSE_SETTLE_MAX_MS = 1000;

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
