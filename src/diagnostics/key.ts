import type { Diagnostic } from "./types.ts";

/** Identity of a diagnostic, whichever tool or callback printed it. */
export function diagnosticKey(d: Diagnostic): string {
  return `${d.file}\0${d.line}\0${d.column}\0${d.severity}\0${d.code}\0${d.message}`;
}

/** Diagnostics without repeats, first kept. Most spots hold one: their message is only compared when two share one. */
export function unique(list: readonly Diagnostic[]): Diagnostic[] {
  const bySpot = new Map<string, Diagnostic[]>();
  const out: Diagnostic[] = [];
  for (const d of list) {
    const spot = `${d.file}:${d.line}:${d.column}`;
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
