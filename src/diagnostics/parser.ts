import type { Diagnostic } from "../model/diagnostic.ts";
import type { PathBase } from "./_path.ts";

/** A diagnostic before its path is made root-relative. */
export type RawDiagnostic = Omit<Diagnostic, "baseline" | "since">;

/**
 * One output format. `detect` is a cheap test on the whole (ANSI-free) output; `parse` reads
 * its lines and marks the ones it used in `claimed`, so a later parser never reads the
 * same line twice (mypy's and gcc's lines look alike). A parser may stop once it found
 * `room` diagnostics: no more are kept (the formats one line per diagnostic do, so a
 * dense output is not read past what is kept).
 */
export interface OutputParser {
  /** The name a callback's `format:` uses to force it. */
  readonly name: string;
  detect(text: string): boolean;
  parse(
    lines: readonly string[],
    claimed: Uint8Array,
    base: PathBase,
    room: number,
  ): RawDiagnostic[];
}

/** An integer from a regex group, or `fallback`. */
export function int(value: string | undefined, fallback = 0): number {
  if (value === undefined) return fallback;
  const n = Number.parseInt(value, 10);
  return Number.isFinite(n) && n >= 0 ? n : fallback;
}

/**
 * A parser for formats with one diagnostic per line: each unclaimed line `line` matches
 * becomes what `build` makes of it (null skips the line). `detect` is a regex, or a test
 * that looks for a literal first (a regex is compiled on first use: most outputs need
 * few of them).
 */
export function lineParser(
  name: string,
  detect: RegExp | ((text: string) => boolean),
  line: RegExp,
  build: (m: RegExpExecArray) => RawDiagnostic | null,
): OutputParser {
  return {
    name,
    detect: typeof detect === "function" ? detect : (text) => detect.test(text),
    parse(lines, claimed, _base, room) {
      const out: RawDiagnostic[] = [];
      for (let i = 0; i < lines.length && out.length < room; i++) {
        if (claimed[i]) continue;
        const m = line.exec(lines[i] as string);
        if (m === null) continue;
        const d = build(m);
        if (d === null) continue;
        claimed[i] = 1;
        out.push(d);
      }
      return out;
    },
  };
}
