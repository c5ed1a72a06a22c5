import type { Diagnostic } from "../model/diagnostic.ts";
import type { PathBase } from "./_path.ts";

export type RawDiagnostic = Omit<Diagnostic, "baseline" | "since">;

/**
 * One output format. `parse` marks the lines it used in `claimed`, so a later parser never
 * reads a line twice (mypy's and gcc's look alike). It may stop once it found `room`.
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

export function int(value: string | undefined, fallback = 0): number {
  if (value === undefined) return fallback;
  const n = Number.parseInt(value, 10);
  return Number.isFinite(n) && n >= 0 ? n : fallback;
}

/** A parser for one diagnostic per line; `build` returning null skips the line. */
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
