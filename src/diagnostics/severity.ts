import type { Severity } from "../model/diagnostic.ts";

/** A tool's severity word (`Error`, `warn`, `note`, `fatal error`, `E`) as a Severity. */
export function severityOf(word: string | undefined, fallback: Severity = "error"): Severity {
  // The words most outputs use, answered before any string is made.
  if (word === "error") return "error";
  if (word === "warning") return "warning";
  const w = (word ?? "").toLowerCase();
  if (w === "") return fallback;
  if (w.startsWith("err") || w.startsWith("fatal") || w === "e" || w === "f" || w === "deny")
    return "error";
  if (w.startsWith("warn") || w === "w") return "warning";
  return "info";
}
