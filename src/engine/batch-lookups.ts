import { ProjectSnapshot } from "../cache/content.ts";
import { definitionKey, rootToolConfigs } from "../cache/key.ts";
import { type RunKey, runKey } from "../cache/run-key.ts";
import type { PlannedRun } from "./plan.ts";
import { type CacheLookup, cacheable, lookUp, readsOf } from "./result-cache.ts";
import { checksWholeProject, readsBeyondItsFiles } from "./run-scope.ts";

export interface Prepared {
  readonly definition: string;
  /** The content the run will read, keyed before any run starts; null outside git. */
  readonly readBefore: RunKey | null;
  /** Null when the run is not cached (see cacheable) or its content cannot be known. */
  lookup: CacheLookup | null;
}

/**
 * Each planned run's definition key, content key and cache lookup, made once for the whole
 * batch from one look at the project before any run starts, cached or not (the content key
 * also records what the run found); a run that waits for a fixer looks again (the fixer may
 * change what it reads).
 */
export function prepareLookups(
  root: string,
  planned: readonly PlannedRun[],
  project: ProjectSnapshot = new ProjectSnapshot(root),
): Prepared[] {
  const definitions = new Map<PlannedRun["callback"], string>();
  let configs: ReadonlyMap<string, string> | undefined;
  return planned.map((p) => {
    let definition = definitions.get(p.callback);
    if (definition === undefined) {
      configs ??= rootToolConfigs(root, project);
      definition = definitionKey(root, p.callback, configs, project);
      definitions.set(p.callback, definition);
    }
    const whole = readsBeyondItsFiles(p.callback.run);
    if (cacheable(p.callback, false, checksWholeProject(p.callback.run))) {
      const lookup = lookUp(root, definition, p.files, whole, readsOf(p.callback), project);
      return { definition, readBefore: lookup?.key ?? null, lookup };
    }
    const readBefore = runKey(root, definition, p.files, whole, readsOf(p.callback), project);
    return { definition, readBefore, lookup: null };
  });
}

/** Will every run be replayed from the cache (nothing runs, nothing can change)? */
export function allReplayed(prepared: readonly Prepared[]): boolean {
  return prepared.length > 0 && prepared.every((p) => p.lookup?.record !== undefined);
}
