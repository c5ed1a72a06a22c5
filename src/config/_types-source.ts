// Bun (and `bun build --compile`) import the file's text here; tsc only sees a module.
// @ts-expect-error: a text import has no types of its own
import source from "./types.ts" with { type: "text" };

/** The public config types as source text, for the ambient declarations `cpilot init` writes. */
export const TYPES_SOURCE: string = source as unknown as string;
