import { join } from "node:path";
import { readRegularFile } from "../../util/read-regular.ts";

/** Files larger than this are not read for line texts: their diagnostics match by line. */
const MAX_SOURCE_BYTES = 2 * 1024 * 1024;

/**
 * The lines of a project file as on disk now, or null when it is missing, not a regular
 * file, or too large. A file's lines let a diagnostic be recognized after lines above it
 * moved.
 */
export function sourceLines(root: string, file: string): string[] | null {
  if (file === "" || file.startsWith("/")) return null;
  const bytes = readRegularFile(join(root, file), MAX_SOURCE_BYTES);
  return bytes === null ? null : bytes.toString("utf8").split("\n");
}

/** A short fingerprint of a source line, blind to indentation; -1 when unknown. */
export function lineHash(line: string | undefined): number {
  return line === undefined ? -1 : fnv1a(line.trim());
}

/**
 * A 32-bit fingerprint (FNV-1a) of strings joined by NUL, the strings themselves not
 * joined: what a baseline keeps of a source line, and of a diagnostic's tool, severity,
 * code and message, so it stores and compares numbers. Two different diagnostics are
 * taken for one only when their keys collide and they sit on the same source text in the
 * same file.
 */
export function fnv1a(...parts: readonly string[]): number {
  let h = 0x811c9dc5;
  for (let p = 0; p < parts.length; p++) {
    const text = parts[p] as string;
    if (p > 0) h = Math.imul(h, 0x01000193); // the NUL between two parts
    for (let i = 0; i < text.length; i++) {
      h ^= text.charCodeAt(i);
      h = Math.imul(h, 0x01000193);
    }
  }
  return h >>> 0;
}
