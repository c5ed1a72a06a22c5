import { basename } from "node:path";
import { bun } from "./bun.ts";

/** The npm package's sh shim, which starts the platform binary without Node (bin/cpilot.sh). */
export const NPM_SHIM = "node_modules/cpilot/bin/cpilot.sh";

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
  const main = bun?.main ?? process.argv[1] ?? "";
  return [process.execPath, main];
}
