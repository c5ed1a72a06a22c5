import type { Diagnostic } from "../model/diagnostic.ts";
import { FORMAT_ALIASES } from "../model/diagnostic-formats.ts";
import { stripAnsi } from "./_ansi.ts";
import { type PathBase, rootRelative } from "./_path.ts";
import type { OutputParser, RawDiagnostic } from "./parser.ts";
import { GENERIC, PARSERS } from "./registry.ts";

/** What follows its last carriage return (a CRLF's CR dropped). */
function lastState(line: string): string {
  const l = line.endsWith("\r") ? line.slice(0, -1) : line;
  const cr = l.lastIndexOf("\r");
  return cr >= 0 ? l.slice(cr + 1) : l;
}

const SAMPLE_EDGE = 300;
const SAMPLE_BLOCK = 100;
const SAMPLE_STRIDE = 1000;

/**
 * Where formats are recognized: for a long output, its first and last lines and a block every
 * SAMPLE_STRIDE. A short section deep inside another tool's output can be missed: `format:`
 * names it for sure.
 */
function detectionSample(text: string, lines: readonly string[]): string {
  if (lines.length <= 2 * SAMPLE_EDGE + SAMPLE_STRIDE) return text;
  const parts = [lines.slice(0, SAMPLE_EDGE)];
  for (
    let at = SAMPLE_EDGE + SAMPLE_STRIDE / 2;
    at < lines.length - SAMPLE_EDGE;
    at += SAMPLE_STRIDE
  )
    parts.push(lines.slice(at, at + SAMPLE_BLOCK));
  parts.push(lines.slice(-SAMPLE_EDGE));
  return parts.map((p) => p.join("\n")).join("\n");
}

export const MAX_DIAGNOSTICS = 5000;
const MAX_MESSAGE = 2000;

export interface ParseOptions extends PathBase {
  readonly format?: string | undefined;
  readonly limit?: number | undefined;
}

export interface ParsedOutput {
  readonly diagnostics: Diagnostic[];
  readonly cut: boolean;
  /** The tool said it printed only some of its diagnostics: `cut` too. */
  readonly hidden?: true;
  /** The tool said an error kept it from checking the rest: it checked none of the other files. */
  readonly stopped?: true;
}

const TOOL_HID_SOME = /^Diagnostics not shown: \d+\.?\s*$/m;
/** mypy's summary after a blocking error, which it raises before type-checking any module. */
const TOOL_STOPPED = /^Found \d+ errors? in \d+ files? \(errors prevented further checking\)\s*$/m;

/**
 * A tool's output as diagnostics: colours stripped, formats recognized (or the one `format`
 * names), paths root-relative, duplicates dropped. When no format matched, any
 * `path:line[:col]` line counts.
 */
export function parseDiagnostics(output: string, options: ParseOptions): Diagnostic[] {
  return parseOutput(output, options).diagnostics;
}

export function parseOutput(output: string, options: ParseOptions): ParsedOutput {
  const format = options.format ?? "auto";
  if (format === "none" || output === "") return { diagnostics: [], cut: false };
  const limit = Math.min(options.limit ?? MAX_DIAGNOSTICS, MAX_DIAGNOSTICS);
  const text = stripAnsi(output);
  // A line redrawn with carriage returns (a progress bar) shows its last state.
  const split = text.split("\n");
  const lines = text.includes("\r") ? split.map(lastState) : split;
  const claimed = new Uint8Array(lines.length);
  const sample = detectionSample(text, lines);
  const raw: RawDiagnostic[] = [];
  const name = FORMAT_ALIASES[format] ?? format;
  const chosen = [...PARSERS, GENERIC].find((p) => p.name === name) ?? null; // else "auto"
  const parsers: readonly OutputParser[] = chosen ? [chosen] : PARSERS;
  for (const parser of parsers) {
    if (chosen === null && !parser.detect(sample)) continue;
    for (const d of parser.parse(lines, claimed, options, limit - raw.length)) raw.push(d);
    if (raw.length >= limit) break;
  }
  if (raw.length === 0 && chosen === null)
    for (const d of GENERIC.parse(lines, claimed, options, limit)) raw.push(d);
  const cut = raw.length >= limit;
  // Each distinct path is resolved once, in place, with no call per diagnostic.
  const paths = new Map<string, string>();
  // Most spots hold one diagnostic, whose message is compared only when a second comes.
  const spotsByFile = new Map<string, Map<number, RawDiagnostic | RawDiagnostic[]>>();
  let spots = new Map<number, RawDiagnostic | RawDiagnostic[]>();
  const count = Math.min(raw.length, limit);
  let printed: string | null = null;
  let file = "";
  let kept = 0;
  for (let i = 0; i < count; i++) {
    let d = raw[i] as RawDiagnostic;
    if (d.file !== printed) {
      printed = d.file;
      const known = paths.get(printed);
      file = known ?? rootRelative(printed, options);
      if (known === undefined) paths.set(printed, file);
      spots = spotsByFile.get(file) ?? new Map();
      if (spots.size === 0) spotsByFile.set(file, spots);
    }
    if (d.message.length > MAX_MESSAGE)
      d = { ...d, file, message: `${d.message.slice(0, MAX_MESSAGE)} …` };
    else (d as { file: string }).file = file; // a parser's fresh object: no copy needed
    const spot = d.line * 100_000 + d.column;
    const same = spots.get(spot);
    if (same === undefined) spots.set(spot, d);
    else if (Array.isArray(same)) {
      if (repeatOf(same, d)) continue;
      same.push(d);
    } else {
      if (sameProblem(same, d)) continue;
      spots.set(spot, [same, d]);
    }
    raw[kept++] = d;
  }
  raw.length = kept;
  if (text.includes("Diagnostics not shown") && TOOL_HID_SOME.test(text))
    return { diagnostics: raw, cut: true, hidden: true };
  if (text.includes("prevented further checking") && TOOL_STOPPED.test(text))
    return { diagnostics: raw, cut, stopped: true };
  return { diagnostics: raw, cut };
}

function repeatOf(kept: readonly RawDiagnostic[], d: RawDiagnostic): boolean {
  for (const o of kept) if (sameProblem(o, d)) return true;
  return false;
}

function sameProblem(a: RawDiagnostic, b: RawDiagnostic): boolean {
  return a.message === b.message && a.code === b.code && a.severity === b.severity;
}
