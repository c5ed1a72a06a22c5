import { join } from "node:path";
import { crc32 } from "../../platform/crc32.ts";
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
  return line === undefined ? -1 : crc32(line.trim());
}

/**
 * A diagnostic's 32-bit fingerprint is `crc32(message, keyHead(tool, severity, code))`: the
 * sum of "tool\0severity\0code\0" continued over the message, what a baseline keeps of it,
 * so it stores and compares numbers. A dense output's thousands of diagnostics share a few
 * heads, and joining each message to its head cost more than the sum itself. Two different
 * diagnostics are taken for one only when these collide and they sit on the same source
 * text in the same file.
 */
export function keyHead(tool: string, severity: string, code: string): number {
  return crc32(`${tool}\0${severity}\0${code}\0`);
}
