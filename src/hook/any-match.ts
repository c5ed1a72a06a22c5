import type { ResolvedConfig } from "../config/resolve.ts";

/**
 * Could any callback run for these files (of those that run `per` file or batch, when
 * given)? Answered from the compiled patterns alone, so an edit nothing matches (most of
 * an agent's edits, in most projects; every PostToolUse of a project with no per-file
 * callback, where the batch callbacks wait for PostToolBatch) never loads the engine.
 */
export function anyCallbackMatches(
  config: ResolvedConfig,
  files: readonly { readonly path: string }[],
  per?: "file" | "batch",
): boolean {
  return config.callbacks.some(
    (cb) => (per === undefined || cb.per === per) && files.some((f) => cb.matcher.matches(f.path)),
  );
}
