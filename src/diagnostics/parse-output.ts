import { stripVTControlCharacters } from "node:util";
import { type PathBase, rootRelative } from "./_path.ts";
import { FORMAT_ALIASES } from "./format-names.ts";
import { unique } from "./key.ts";
import type { OutputParser, RawDiagnostic } from "./parser.ts";
import { GENERIC, PARSERS } from "./registry.ts";
import type { Diagnostic } from "./types.ts";

/** Most diagnostics kept from one output: past this, the rest is in the log. */
export const MAX_DIAGNOSTICS = 5000;
/** Longest message kept. */
const MAX_MESSAGE = 2000;

export interface ParseOptions extends PathBase {
  /** A parser's name to use it alone, "none" to parse nothing; default "auto". */
  readonly format?: string | undefined;
}

/**
 * A tool's output as diagnostics: colour codes stripped, the formats it contains
 * recognized (or the one `format` names), paths made root-relative and posix, duplicates
 * dropped. When no known format matched, any `path:line[:col]` line counts.
 */
export function parseDiagnostics(output: string, options: ParseOptions): Diagnostic[] {
  const format = options.format ?? "auto";
  if (format === "none" || output === "") return [];
  const text = stripVTControlCharacters(output);
  // A line redrawn with carriage returns (a progress bar) shows its last state.
  const lines = text.split("\n").map((l) => {
    const cr = l.lastIndexOf("\r", l.length - 2);
    return (cr >= 0 ? l.slice(cr + 1) : l).replace(/\r$/, "");
  });
  const claimed = new Uint8Array(lines.length);
  const raw: RawDiagnostic[] = [];
  const name = FORMAT_ALIASES[format] ?? format;
  const chosen = [...PARSERS, GENERIC].find((p) => p.name === name) ?? null; // else "auto"
  const parsers: readonly OutputParser[] = chosen ? [chosen] : PARSERS;
  for (const parser of parsers) {
    if (chosen === null && !parser.detect(text)) continue;
    raw.push(...parser.parse(lines, claimed, options));
    if (raw.length >= MAX_DIAGNOSTICS) break;
  }
  if (raw.length === 0 && chosen === null) raw.push(...GENERIC.parse(lines, claimed, options));
  return unique(raw.slice(0, MAX_DIAGNOSTICS).map((d) => normalize(d, options)));
}

function normalize(d: RawDiagnostic, base: PathBase): Diagnostic {
  const message =
    d.message.length > MAX_MESSAGE ? `${d.message.slice(0, MAX_MESSAGE)} …` : d.message;
  return { ...d, file: rootRelative(d.file, base), message };
}
