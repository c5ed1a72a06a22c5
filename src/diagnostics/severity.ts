import type { Severity } from "../model/diagnostic.ts";

export function severityOf(word: string | undefined, fallback: Severity = "error"): Severity {
  if (word === "error") return "error";
  if (word === "warning") return "warning";
  const w = (word ?? "").toLowerCase();
  if (w === "") return fallback;
  if (w.startsWith("err") || w.startsWith("fatal") || w === "e" || w === "f" || w === "deny")
    return "error";
  if (w.startsWith("warn") || w === "w") return "warning";
  return "info";
}
