import type { Diagnostic } from "./types.ts";

/** Identity of a diagnostic, whichever tool or callback printed it. */
export function diagnosticKey(d: Diagnostic): string {
  return `${d.file}\0${d.line}\0${d.column}\0${d.severity}\0${d.code}\0${d.message}`;
}

/** Diagnostics without repeats, first kept. */
export function unique(list: readonly Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  const out: Diagnostic[] = [];
  for (const d of list) {
    const key = diagnosticKey(d);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(d);
  }
  return out;
}
