import type { ResolvedConfig } from "../../config/resolve.ts";

/**
 * Could any callback run for these files? Answered from the compiled patterns alone, so an
 * edit nothing matches (most of an agent's edits, in most projects) never loads the engine.
 */
export function anyCallbackMatches(
  config: ResolvedConfig,
  files: readonly { readonly path: string }[],
): boolean {
  return config.callbacks.some((cb) => files.some((f) => cb.matcher.matches(f.path)));
}
