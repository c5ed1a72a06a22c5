import ignore from "ignore";

/**
 * Stand-in for src/match/pattern.ts (same signature) until that module lands:
 * gitignore-style patterns, last matching rule wins, `!` negates.
 */
export function compilePatterns(patterns: string | readonly string[]): {
  matches(relPath: string): boolean;
} {
  const ig = ignore().add(typeof patterns === "string" ? [patterns] : [...patterns]);
  return { matches: (relPath) => relPath !== "" && ig.ignores(relPath) };
}
