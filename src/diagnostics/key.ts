import type { Diagnostic } from "../model/diagnostic.ts";

/** Identity of a diagnostic, whichever tool or callback printed it. */
export function diagnosticKey(d: Diagnostic): string {
  return `${d.file}\0${d.line}\0${d.column}\0${d.severity}\0${d.code}\0${d.message}`;
}

/** Diagnostics without repeats, first kept. Most spots hold one: their message is only compared when two share one. */
export function unique(list: readonly Diagnostic[]): Diagnostic[] {
  const byFile = new Map<string, Map<number, Diagnostic[]>>();
  const out: Diagnostic[] = [];
  for (const d of list) {
    let bySpot = byFile.get(d.file);
    if (bySpot === undefined) {
      bySpot = new Map();
      byFile.set(d.file, bySpot);
    }
    const spot = d.line * 100_000 + d.column;
    const same = bySpot.get(spot);
    if (same === undefined) bySpot.set(spot, [d]);
    else if (
      same.some((o) => o.message === d.message && o.code === d.code && o.severity === d.severity)
    )
      continue;
    else same.push(d);
    out.push(d);
  }
  return out;
}
