import { join } from "node:path";
import { crc32 } from "../../platform/crc32.ts";
import { readRegularFile } from "../../util/read-regular.ts";

/** Larger files are not read: their diagnostics match by line. */
const MAX_SOURCE_BYTES = 2 * 1024 * 1024;

/** A project file's lines, or null when missing, not regular, or too large. */
export function sourceLines(root: string, file: string): string[] | null {
  if (file === "" || file.startsWith("/")) return null;
  const bytes = readRegularFile(join(root, file), MAX_SOURCE_BYTES);
  return bytes === null ? null : bytes.toString("utf8").split("\n");
}

export function lineHash(line: string | undefined): number {
  return line === undefined ? -1 : crc32(line.trim());
}

/**
 * A diagnostic's 32-bit fingerprint is `crc32(message, keyHead(tool, severity, code))`, so a
 * baseline stores and compares numbers. Two diagnostics are taken for one only when these
 * collide and they sit on the same source text in the same file.
 */
export function keyHead(tool: string, severity: string, code: string): number {
  return crc32(`${tool}\0${severity}\0${code}\0`);
}
