import { isCompiledBinary } from "./self-command.ts";

/**
 * The shell command an agent's hook config runs: this binary's absolute path when cpilot
 * is the compiled binary (works without cpilot on PATH), else `cpilot` from PATH.
 *
 * @example
 * agentHookCommand("gemini") // "/usr/local/bin/cpilot hook gemini"
 */
export function agentHookCommand(agent: string, execPath = process.execPath): string {
  const bin = isCompiledBinary(execPath) ? shellQuote(execPath) : "cpilot";
  return `${bin} hook ${agent}`;
}

/** Quote for sh when needed. */
export function shellQuote(s: string): string {
  return /^[A-Za-z0-9_./+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** True for a hook command cpilot installed for `agent` (any binary path, any quoting). */
export function isCpilotHookCommand(command: unknown, agent: string): boolean {
  if (typeof command !== "string") return false;
  const re = new RegExp(`(^|[/\\s'"])cpilot(\\.exe)?['"]?\\s+hook\\s+${agent}(\\s|$)`);
  return re.test(command);
}
