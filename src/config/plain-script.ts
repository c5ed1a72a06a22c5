// Is a config script plain data? A script that imports nothing but "cpilot" and reaches
// nothing outside itself (environment, files, clocks, randomness, the network) evaluates
// to the same value for the same source, wherever and whenever it runs. `cpilot run`'s hook
// listener answers only for such configs; their values, and those of scripts that import
// only such modules of their own, are cached between processes.
import { dirname, relative, resolve } from "node:path";

/**
 * Names that reach the environment, other files, clocks, randomness, the network or global
 * state from a config script. A word, not a parse: a config that merely mentions one (in a
 * string, say) is treated as live, which costs speed, never correctness.
 */
const LIVE_NAMES =
  /\b(?:process|constructor|Bun|Deno|globalThis|global|self|window|require|eval|Function|Date|Math\.random|crypto|performance|fetch|navigator|location|Intl|WebAssembly|Worker|WebSocket|XMLHttpRequest|localStorage|sessionStorage|setTimeout|setInterval|queueMicrotask|SharedArrayBuffer|Atomics)\b|import\.meta/;
/**
 * What hides from a search for those names: an import whose module is computed or named
 * behind a comment, and a name spelled with a \u escape (`\u0070rocess` is `process` to
 * JavaScript).
 */
const HIDDEN = /\bimport\s*\((?!\s*["'`])|\b(?:from|import)\s*\(?\s*\/[/*]|\\u/;
/** Every module specifier of a static import, export-from or dynamic import. */
const SPECIFIERS = /\b(?:from|import)\s*\(?\s*(["'`])([^"'`]*)\1/g;

/** A module a config may import and still be kept: a relative path written with its extension. */
const LOCAL = /^\.\.?\/[^?#]*\.(?:ts|mts|js|mjs)$/;

/**
 * Why a config script's source does not qualify, or null when it does. With `local`, it
 * may also import modules by a relative path with their extension ({@link plainGraph}).
 */
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

/** A module of a config's graph and the source it had when read. */
export interface GraphModule {
  readonly path: string;
  readonly source: string;
}

/** More modules than this in one config's graph: not kept, imported every time. */
const MAX_MODULES = 64;

/**
 * The modules a config script imports, directly or through each other, when every one of
 * them is plain data but for importing the others by a relative path with its extension;
 * else why not. `read` gives a module's source, or null when it is not a readable file. The
 * config itself is not listed. Its value is then the same for the same sources.
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
