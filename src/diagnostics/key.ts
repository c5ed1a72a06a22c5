import type { Diagnostic } from "../model/diagnostic.ts";

export function diagnosticKey(d: Diagnostic): string {
  return `${d.file}\0${d.line}\0${d.column}\0${d.severity}\0${d.code}\0${d.message}`;
}
