import type { Diagnostic } from "../model/diagnostic.ts";

/** Identity of a diagnostic, whichever tool or callback printed it. */
export function diagnosticKey(d: Diagnostic): string {
  return `${d.file}\0${d.line}\0${d.column}\0${d.severity}\0${d.code}\0${d.message}`;
}

/**
 * Diagnostics without repeats, first kept, as they come: `add` says whether one is new.
 * Most spots hold one: their message is only compared when two share one. Runs of one
 * file (the usual order) look the file up once.
 */
export class Repeats {
  private readonly byFile = new Map<string, Map<number, Diagnostic | Diagnostic[]>>();
  private file: string | null = null;
  private bySpot = new Map<number, Diagnostic | Diagnostic[]>();

  /** True the first time a diagnostic is seen, false for a repeat of an earlier one. */
  add(d: Diagnostic): boolean {
    if (d.file !== this.file) {
      this.file = d.file;
      const known = this.byFile.get(d.file);
      if (known === undefined) {
        this.bySpot = new Map();
        this.byFile.set(d.file, this.bySpot);
      } else this.bySpot = known;
    }
    const spot = d.line * 100_000 + d.column;
    const same = this.bySpot.get(spot);
    if (same === undefined) {
      this.bySpot.set(spot, d);
      return true;
    }
    if (!Array.isArray(same)) {
      if (sameProblem(same, d)) return false;
      this.bySpot.set(spot, [same, d]);
      return true;
    }
    for (const o of same) if (sameProblem(o, d)) return false;
    same.push(d);
    return true;
  }
}

/** Two diagnostics at one spot of one file: the same problem? */
function sameProblem(a: Diagnostic, b: Diagnostic): boolean {
  return a.message === b.message && a.code === b.code && a.severity === b.severity;
}
