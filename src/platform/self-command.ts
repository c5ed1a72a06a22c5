import { basename } from "node:path";
import { bun } from "./bun.ts";

/** The npm package's sh shim, which starts the platform binary without Node. */
export const NPM_SHIM = "node_modules/cpilot/bin/cpilot.sh";

export function isCompiledBinary(execPath = process.execPath): boolean {
  const name = basename(execPath).toLowerCase();
  return name !== "bun" && name !== "bun.exe" && name !== "node" && name !== "node.exe";
}

export function selfArgv(): string[] {
  if (isCompiledBinary()) return [process.execPath];
  const main = bun?.main ?? process.argv[1] ?? "";
  return [process.execPath, main];
}
