import { basename } from "node:path";

/** True when running as the compiled `cpilot` binary rather than `bun main.ts`. */
export function isCompiledBinary(execPath = process.execPath): boolean {
  const name = basename(execPath).toLowerCase();
  return name !== "bun" && name !== "bun.exe" && name !== "node" && name !== "node.exe";
}

/**
 * The argv that starts this same cpilot again: the binary itself, or bun plus the entry
 * script when running from source.
 */
export function selfArgv(): string[] {
  if (isCompiledBinary()) return [process.execPath];
  const main = (globalThis as { Bun?: { main?: string } }).Bun?.main ?? process.argv[1] ?? "";
  return [process.execPath, main];
}
