import type { ManagedCallback } from "../config/managed.ts";
import { paint } from "../ui/style.ts";
import type { Via } from "./build.ts";

export function callbackJson(callback: ManagedCallback): string {
  return JSON.stringify(callback, null, 2);
}

export function viaLine(via: Via): string {
  if (via.kind === "model") {
    const retry = via.attempts > 1 ? ", after one retry" : "";
    return `callback built by ${via.model} (${via.provider}${retry}):`;
  }
  return `${paint("callback built WITHOUT a model", "yellow")}, from cpilot's phrase rules (${via.why}):`;
}

/** Header, JSON, then what the rules assumed. */
export function renderPreview(
  callback: ManagedCallback,
  via: Via,
  notes: readonly string[],
): string {
  const lines = [viaLine(via), "", callbackJson(callback), ""];
  if (notes.length > 0) {
    lines.push(paint("assumed:", "bold"), ...notes.map((n) => `  - ${n}`), "");
  }
  return lines.join("\n");
}

/** For a command line a person can copy. */
export function shellQuote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}
