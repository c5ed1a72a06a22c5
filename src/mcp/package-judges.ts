import { relative, sep } from "node:path";
import type { ResolvedConfig } from "../config/resolve.ts";
import { createEngine, type Engine } from "../engine/engine.ts";
import { nestedBatches } from "../hook/edits.ts";
import type { EditBatch } from "../model/batch.ts";

/** A config that judges some of a batch's edits, with those edits relative to its folder. */
export interface Judge {
  readonly config: ResolvedConfig;
  readonly engine: Engine;
  readonly batch: EditBatch;
  /** The config's path as the agent names it; null for the project's own config. */
  readonly label: string | null;
}

/** A package whose config judges some edits but did not load: those edits were not checked. */
export interface Unjudged {
  /** Relative to the project root, no trailing slash. */
  readonly folder: string;
  readonly why: string;
}

/**
 * The packages below the batch's root with their own tracked config that hold some of the
 * batch's edits: the nearest config decides, so the batch's engine left them out
 * (`leftOut`, when it ran) and each such package's config judges its own edits, loaded as
 * the hook loads it. One that does not load is told, never passed in silence. Folders and
 * labels are named from `top`, the project root.
 */
export async function packageJudges(
  batch: EditBatch,
  leftOut: ReadonlyMap<string, string> | undefined,
  top: string = batch.root,
): Promise<{ judges: Judge[]; unjudged: Unjudged[] }> {
  const judges: Judge[] = [];
  const unjudged: Unjudged[] = [];
  const fromTop = (path: string) => relative(top, path).split(sep).join("/");
  for (const nested of await nestedBatches(batch, leftOut)) {
    if (typeof nested.config === "string") {
      unjudged.push({ folder: fromTop(nested.batch.root), why: nested.config });
      continue;
    }
    const config = nested.config;
    judges.push({
      config,
      engine: createEngine({ root: config.root, config }),
      batch: nested.batch,
      label: fromTop(config.path),
    });
  }
  return { judges, unjudged };
}
