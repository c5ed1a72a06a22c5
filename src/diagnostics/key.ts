import type { Diagnostic } from "../model/diagnostic.ts";

/** Identity of a diagnostic, whichever tool or callback printed it. */
export function diagnosticKey(d: Diagnostic): string {
  return `${d.file}\0${d.line}\0${d.column}\0${d.severity}\0${d.code}\0${d.message}`;
}

/**
 * Diagnostics without repeats, first kept. Most spots hold one: their message is only
 * compared when two share one. Runs of one file (the usual order) look the file up once.
 */
export function unique(list: readonly Diagnostic[]): Diagnostic[] {
  const byFile = new Map<string, Map<number, Diagnostic | Diagnostic[]>>();
  const out: Diagnostic[] = [];
  let file: string | null = null;
  let bySpot = new Map<number, Diagnostic | Diagnostic[]>();
  for (const d of list) {
    if (d.file !== file) {
      file = d.file;
      const known = byFile.get(file);
      if (known === undefined) {
        bySpot = new Map();
        byFile.set(file, bySpot);
      } else bySpot = known;
    }
    const spot = d.line * 100_000 + d.column;
    const same = bySpot.get(spot);
    if (same === undefined) bySpot.set(spot, d);
    else {
      const others = Array.isArray(same) ? same : [same];
      if (
        others.some(
          (o) => o.message === d.message && o.code === d.code && o.severity === d.severity,
        )
      )
        continue;
      others.push(d);
      if (others !== same) bySpot.set(spot, others);
    }
    out.push(d);
  }
  return out;
}
