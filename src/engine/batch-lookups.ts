import { ProjectSnapshot } from "../cache/content.ts";
import { definitionKey, rootToolConfigs } from "../cache/key.ts";
import type { PlannedRun } from "./plan.ts";
import { type CacheLookup, cacheable, lookUp, readsOf } from "./result-cache.ts";
import { checksWholeProject, readsBeyondItsFiles } from "./run-scope.ts";

export interface Prepared {
  readonly definition: string;
  /** The look at the project the batch was planned from: a run not cached keys its content with it. */
  readonly project: ProjectSnapshot;
  /** Null when the run is not cached (see cacheable) or its content cannot be known. */
  lookup: CacheLookup | null;
}

/**
 * Each planned run's definition key and cache lookup, made once for the whole batch from one
 * look at the project before any run starts; a run not cached keys its content from that look
 * when it starts. A run that waits for a fixer looks again (the fixer may change what it reads).
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
    const cached = cacheable(p.callback, false, checksWholeProject(p.callback.run));
    const lookup = cached
      ? lookUp(
          root,
          definition,
          p.files,
          readsBeyondItsFiles(p.callback.run),
          readsOf(p.callback),
          project,
        )
      : null;
    return { definition, project, lookup };
  });
}

/** Will every run be replayed from the cache (nothing runs, nothing can change)? */
export function allReplayed(prepared: readonly Prepared[]): boolean {
  return prepared.length > 0 && prepared.every((p) => p.lookup?.record !== undefined);
}
