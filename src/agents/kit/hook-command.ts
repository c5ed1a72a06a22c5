import { isCompiledBinary } from "../../platform/self-command.ts";
import { type ProjectReach, portableCpilot } from "./portable-command.ts";

/**
 * In a file shared with the team: a command every teammate can run (see portableCpilot).
 * In the user's home: this binary's absolute path when compiled, else `cpilot` from PATH.
 *
 * @example
 * agentHookCommand("gemini", geminiProtocol, { shared: false }) // "/usr/local/bin/cpilot hook gemini"
 * agentHookCommand("gemini", geminiProtocol, { shared: true, root }) // "cpilot hook gemini"
 */
export function agentHookCommand(
  agent: string,
  reach: ProjectReach,
  where: { shared: true; root: string } | { shared: false },
  execPath = process.execPath,
): string {
  if (where.shared) return `${portableCpilot(reach, where.root)} hook ${agent}`;
  const bin = isCompiledBinary(execPath) ? shellQuote(execPath) : "cpilot";
  return `${bin} hook ${agent}`;
}

export function shellQuote(s: string): string {
  return /^[A-Za-z0-9_./+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** Any binary path or the npm shim, any quoting. */
export function isCpilotHookCommand(command: unknown, agent: string): boolean {
  if (typeof command !== "string") return false;
  // `;` ends it inside a fail-closed pre-write command (fail-closed-command.ts)
  const re = new RegExp(`(^|[/\\s'"])cpilot(\\.exe|\\.sh)?['"]?\\s+hook\\s+${agent}(\\s|;|$)`);
  return re.test(command);
}

/** A project file is shared with the team, a user file is not. */
export function hookPlace(ctx: {
  readonly scope: "project" | "user";
  readonly root: string;
}): { shared: true; root: string } | { shared: false } {
  return ctx.scope === "project" ? { shared: true, root: ctx.root } : { shared: false };
}
