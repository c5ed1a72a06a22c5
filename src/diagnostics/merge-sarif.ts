type Json = Record<string, unknown>;

/**
 * One SARIF run per callback out of several shards' logs: runs with one `automationDetails.id`
 * merge, results concatenated, rules joined and `ruleIndex` remapped.
 */
export function mergeSarifRuns(runs: readonly Json[]): Json[] {
  const byId = new Map<string, Json[]>();
  for (const run of runs) {
    const id = String((run.automationDetails as Json | undefined)?.id ?? "");
    const group = byId.get(id);
    if (group) group.push(run);
    else byId.set(id, [run]);
  }
  return [...byId.values()].map((group) =>
    group.length === 1 ? (group[0] as Json) : joinRuns(group),
  );
}

function joinRuns(group: readonly Json[]): Json {
  const first = group[0] as Json;
  const driver = ((first.tool as Json | undefined)?.driver ?? {}) as Json;
  const rules: Json[] = [];
  const ruleAt = new Map<string, number>();
  const results: Json[] = [];
  const invocations: Json[] = [];
  for (const run of group) {
    const own = (
      (((run.tool as Json | undefined)?.driver as Json | undefined)?.rules ?? []) as Json[]
    ).filter((r) => typeof r?.id === "string");
    for (const rule of own) {
      if (!ruleAt.has(rule.id as string)) {
        ruleAt.set(rule.id as string, rules.length);
        rules.push(rule);
      }
    }
    for (const result of (run.results ?? []) as Json[]) {
      const { ruleIndex: _old, ...rest } = result;
      const at = typeof result.ruleId === "string" ? ruleAt.get(result.ruleId) : undefined;
      results.push(at === undefined ? rest : { ...rest, ruleIndex: at });
    }
    invocations.push(...((run.invocations ?? []) as Json[]));
  }
  const ok = invocations.every((i) => i.executionSuccessful !== false);
  return {
    ...first,
    tool: { ...(first.tool as Json), driver: { ...driver, rules } },
    invocations: [{ executionSuccessful: ok }],
    results,
  };
}
