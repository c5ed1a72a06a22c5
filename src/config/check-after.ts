import type { CallbackDef } from "./types.ts";

interface Problem {
  readonly path: string;
  readonly message: string;
}

/** `after` names other callbacks that exist, and forms no cycle (its runs would wait for each other forever). */
export function checkAfter(
  callbacks: readonly CallbackDef[],
  knownNames: readonly string[] = [],
): Problem[] {
  const problems: Problem[] = [];
  const names = new Set([...callbacks.map((cb) => cb.name), ...knownNames]);
  const edges = new Map<string, readonly string[]>();
  callbacks.forEach((cb, i) => {
    const after = cb.after ?? [];
    after.forEach((name, j) => {
      const path = `callbacks[${i}].after[${j}]`;
      if (name === cb.name) problems.push({ path, message: `"${name}" cannot run after itself` });
      else if (!names.has(name))
        problems.push({
          path,
          message: `got "${name}", expected the name of a callback (${[...names].join(", ")})`,
        });
    });
    if (!edges.has(cb.name)) edges.set(cb.name, after);
  });
  const cycle = findCycle(edges);
  if (cycle !== null) {
    const at = callbacks.findIndex((cb) => cb.name === cycle[0]);
    problems.push({
      path: `callbacks[${at}].after`,
      message: `runs in a circle: ${cycle.join(" after ")}; remove one of these "after" entries`,
    });
  }
  return problems;
}

function findCycle(edges: ReadonlyMap<string, readonly string[]>): string[] | null {
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (name: string): string[] | null => {
    const seen = state.get(name);
    if (seen === "done") return null;
    if (seen === "open") return [...stack.slice(stack.indexOf(name)), name];
    state.set(name, "open");
    stack.push(name);
    for (const next of edges.get(name) ?? []) {
      if (next === name || !edges.has(next)) continue;
      const found = visit(next);
      if (found !== null) return found;
    }
    stack.pop();
    state.set(name, "done");
    return null;
  };
  for (const name of edges.keys()) {
    const found = visit(name);
    if (found !== null) return found;
  }
  return null;
}
