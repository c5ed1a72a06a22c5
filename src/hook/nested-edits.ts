import { join } from "node:path";
import { findConfig } from "../config/find.ts";
import { probeTimeoutMs } from "../config/load-probe.ts";
import type { ResolvedConfig } from "../config/resolve.ts";
import { loadConfigSupervised } from "../config/supervised-load.ts";
import { nestedConfigFolders } from "../engine/nested-configs.ts";
import type { EditBatch, FileChange } from "../model/batch.ts";

/** Longest a package's config may take to load, as for a hook call (CPILOT_CONFIG_LOAD_TIMEOUT_MS overrides). */
const LOAD_TIMEOUT_MS = 10_000;

export interface NestedBatch {
  readonly folder: string;
  /** That folder's config, or why it did not load. */
  readonly config: ResolvedConfig | string;
  /** The edits in the folder, relative to it. */
  readonly batch: EditBatch;
}

/**
 * The edits in folders below `batch.root` that hold their own tracked config: the nearest
 * config judges them, so this config's engine left them out (`leftOut`, when it ran).
 * One shell command or patch can reach several packages; each is checked by its own.
 */
export async function nestedBatches(
  batch: EditBatch,
  leftOut: ReadonlyMap<string, string> | undefined,
): Promise<NestedBatch[]> {
  const out: NestedBatch[] = [];
  for (const folder of nestedConfigFolders(batch.root, batch.files, leftOut)) {
    const prefix = `${folder}/`;
    const files = batch.files
      .filter((f) => f.path.startsWith(prefix))
      .map((f) => ({ ...f, path: f.path.slice(prefix.length) }));
    const root = join(batch.root, folder);
    out.push({ folder, config: await loadNested(root), batch: { ...batch, root, files } });
  }
  return out;
}

/** Some of `files` lie in a folder with its own tracked config. */
export function holdsNested(root: string, files: readonly FileChange[]): boolean {
  return nestedConfigFolders(root, files).length > 0;
}

async function loadNested(root: string): Promise<ResolvedConfig | string> {
  const path = findConfig(root);
  if (path === null) return "its config is gone";
  try {
    return await loadConfigSupervised(path, {
      cwd: root,
      timeoutMs: probeTimeoutMs(process.env, LOAD_TIMEOUT_MS),
    });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return message.split("\n")[0] ?? message;
  }
}
