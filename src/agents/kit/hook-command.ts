import { isCompiledBinary } from "../../platform/self-command.ts";
import { type ProjectReach, portableCpilot } from "./portable-command.ts";

/**
 * The shell command an agent's hook config runs. In a file shared with the team (a project
 * scope): a command every teammate's machine can run (see portableCpilot). In a file of
 * this machine only (the user's home): this binary's absolute path when cpilot is the
 * compiled binary (works without cpilot on PATH), else `cpilot` from PATH.
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

/** Quote for sh when needed. */
export function shellQuote(s: string): string {
  return /^[A-Za-z0-9_./+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** True for a hook command cpilot installed for `agent` (any binary path or the npm shim, any quoting). */
export function isCpilotHookCommand(command: unknown, agent: string): boolean {
  if (typeof command !== "string") return false;
  // `;` ends it inside a fail-closed pre-write command (fail-closed-command.ts)
  const re = new RegExp(`(^|[/\\s'"])cpilot(\\.exe|\\.sh)?['"]?\\s+hook\\s+${agent}(\\s|;|$)`);
  return re.test(command);
}

/** Where an installer writes: a project file is shared with the team, a user file is not. */
export function hookPlace(ctx: {
  readonly scope: "project" | "user";
  readonly root: string;
}): { shared: true; root: string } | { shared: false } {
  return ctx.scope === "project" ? { shared: true, root: ctx.root } : { shared: false };
}
