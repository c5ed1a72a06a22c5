// Bun (and `bun build --compile`) import these files' text; tsc only sees modules.
// @ts-expect-error: a text import has no types of its own
import batchSource from "../model/batch.ts" with { type: "text" };
// @ts-expect-error: a text import has no types of its own
import diagnosticSource from "../model/diagnostic.ts" with { type: "text" };
// @ts-expect-error: a text import has no types of its own
import outcomeSource from "../model/outcome.ts" with { type: "text" };
// @ts-expect-error: a text import has no types of its own
import source from "./types.ts" with { type: "text" };

/** The public types as source text, for the declarations `cpilot init` writes. */
export const TYPES_SOURCES: readonly string[] = [
  source,
  outcomeSource,
  batchSource,
  diagnosticSource,
] as unknown as string[];
