// Is a config script plain data? A script that imports nothing but "cpilot" and reaches
// nothing outside itself (environment, files, clocks, randomness, the network) evaluates
// to the same value for the same source, wherever and whenever it runs. `cpilot run`'s hook
// listener answers only for such configs, and only their values are cached between processes.

/**
 * Names that reach the environment, other files, clocks, randomness, the network or global
 * state from a config script. A word, not a parse: a config that merely mentions one (in a
 * string, say) is treated as live, which costs speed, never correctness.
 */
const LIVE_NAMES =
  /\b(?:process|constructor|Bun|Deno|globalThis|global|self|window|require|eval|Function|Date|Math\.random|crypto|performance|fetch|navigator|location|Intl|WebAssembly|Worker|WebSocket|XMLHttpRequest|localStorage|sessionStorage|setTimeout|setInterval|queueMicrotask|SharedArrayBuffer|Atomics)\b|import\.meta/;
/**
 * What hides from a search for those names: an import whose module is computed, and a name
 * spelled with a \u escape (`\u0070rocess` is `process` to JavaScript).
 */
const HIDDEN = /\bimport\s*\((?!\s*["'`])|\\u/;
/** Every module specifier of a static import, export-from or dynamic import. */
const SPECIFIERS = /\b(?:from|import)\s*\(?\s*(["'`])([^"'`]*)\1/g;

/** Why a config script's source does not qualify, or null when it does. */
export function scriptProblem(source: string): string | null {
  for (const match of source.matchAll(SPECIFIERS)) {
    const specifier = match[2] ?? "";
    if (specifier !== "cpilot" && !specifier.startsWith("cpilot/")) {
      return `it imports "${specifier}"`;
    }
  }
  const hidden = HIDDEN.exec(source);
  if (hidden !== null) {
    return hidden[0] === "\\u"
      ? "it spells a name with a \\u escape"
      : "it imports a module whose name it computes";
  }
  const live = LIVE_NAMES.exec(source);
  return live === null ? null : `it uses ${live[0]}`;
}
