// A config script that imports nothing but "cpilot" and reaches nothing outside itself
// evaluates to the same value wherever it runs: `cpilot run`'s listener answers only for such
// configs, and their values are cached between processes.
import { dirname, relative, resolve } from "node:path";

/** A word, not a parse: a config that merely mentions one is treated as live, costing speed, never correctness. */
const LIVE_NAMES =
  /\b(?:process|constructor|Bun|Deno|globalThis|global|self|window|require|eval|Function|Date|Math\.random|crypto|performance|fetch|navigator|location|Intl|WebAssembly|Worker|WebSocket|XMLHttpRequest|localStorage|sessionStorage|setTimeout|setInterval|queueMicrotask|SharedArrayBuffer|Atomics)\b|import\.meta/;
/** What hides from that search: a computed import, one behind a comment, a name spelled with \u. */
const HIDDEN = /\bimport\s*\((?!\s*["'`])|\b(?:from|import)\s*\(?\s*\/[/*]|\\u/;
const SPECIFIERS = /\b(?:from|import)\s*\(?\s*(["'`])([^"'`]*)\1/g;

const LOCAL = /^\.\.?\/[^?#]*\.(?:ts|mts|js|mjs)$/;

/** Why a config script does not qualify, or null. With `local`, relative imports with their extension are allowed. */
export function scriptProblem(source: string, options: { local?: boolean } = {}): string | null {
  for (const match of source.matchAll(SPECIFIERS)) {
    const specifier = match[2] ?? "";
    if (specifier === "cpilot" || specifier.startsWith("cpilot/")) continue;
    if (!(options.local && LOCAL.test(specifier))) return `it imports "${specifier}"`;
  }
  const hidden = HIDDEN.exec(source);
  if (hidden !== null) {
    if (hidden[0] === "\\u") return "it spells a name with a \\u escape";
    return hidden[0].endsWith("(")
      ? "it imports a module whose name it computes"
      : "it names an imported module behind a comment";
  }
  const live = LIVE_NAMES.exec(source);
  return live === null ? null : `it uses ${live[0]}`;
}

export interface GraphModule {
  readonly path: string;
  readonly source: string;
}

const MAX_MODULES = 64;

/**
 * The modules a config imports, directly or not, when every one is plain data but for
 * importing the others; else why not. The config itself is not listed.
 */
export function plainGraph(
  path: string,
  source: string,
  read: (path: string) => string | null,
): { readonly modules: readonly GraphModule[] } | { readonly problem: string } {
  const top = resolve(path);
  const modules: GraphModule[] = [];
  const seen = new Set([top]);
  const queue: GraphModule[] = [{ path: top, source }];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    const problem = scriptProblem(next.source, { local: true });
    if (problem !== null) {
      return {
        problem:
          next.path === top
            ? problem
            : `"${relative(dirname(top), next.path)}" ${problem.slice(3)}`,
      };
    }
    for (const match of next.source.matchAll(SPECIFIERS)) {
      const specifier = match[2] ?? "";
      if (!LOCAL.test(specifier)) continue; // cpilot itself
      const target = resolve(dirname(next.path), specifier);
      if (seen.has(target)) continue;
      seen.add(target);
      if (seen.size > MAX_MODULES)
        return { problem: `it imports more than ${MAX_MODULES - 1} modules` };
      const text = read(target);
      if (text === null)
        return { problem: `it imports "${specifier}", which is not a file it can read` };
      const module = { path: target, source: text };
      modules.push(module);
      queue.push(module);
    }
  }
  return { modules };
}
