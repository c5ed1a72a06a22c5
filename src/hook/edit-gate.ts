import { homedir } from "node:os";
import { isAbsolute, resolve } from "node:path";
import type { ResolvedConfig } from "../config/resolve.ts";
import type { GateDecision, PendingWrite } from "../model/gate-types.ts";
import type { AgentProtocol } from "../model/hook.ts";
import { unloadedConfigNote, unloadedConfigWhy } from "./config.ts";
import { gateFailed, gateModified, unloadedConfigRefusal } from "./messages.ts";

/** The agent's own notes folders here, for the gate (see AgentProtocol.stateDirs). */
export function stateDirsHere(agent: AgentProtocol, env = process.env): string[] {
  return agent.stateDirs(env.HOME || homedir(), env);
}

/**
 * Run the write gate for a hook (no terminal to ask on: `ask` rules use the headless mode).
 * `cwd`: the agent's folder, which a relative path is taken from (the gate's own base is
 * the root, which the agent's folder need not be: a subfolder, or a parent folder whose
 * config was found from the written file).
 */
export async function gateEdit(
  agent: AgentProtocol,
  config: ResolvedConfig,
  asGiven: PendingWrite,
  cwd?: string,
): Promise<GateDecision> {
  const write = fromAgentFolder(asGiven, config.root, cwd);
  const { evaluateWrite } = await import("../gate/evaluate.ts");
  const decision = await evaluateWrite(write, {
    root: config.root,
    config: config.source.gate ?? {},
    tty: false,
    stateDirs: stateDirsHere(agent),
  });
  const why = unloadedConfigWhy(config);
  if (why === null) return decision;
  // The config did not load: the built-in protections decided alone, and whatever they
  // allow may be what the config's rules or plugins deny (a config broken through a file
  // it imports, which the agent may edit, must not open the gate): refused. The MCP edit
  // tools refuse the same way (src/mcp/perform-write.ts).
  if (decision.decision === "deny") {
    decision.reason += unloadedConfigNote(config) ?? "";
    return decision;
  }
  return refusedUnloaded(decision, write.path, why);
}

/** `write` with a relative path the agent gave from `cwd` made absolute, when that differs from the root. */
function fromAgentFolder(write: PendingWrite, root: string, cwd: string | undefined): PendingWrite {
  if (cwd === undefined || isAbsolute(write.path) || write.path.includes("\0")) return write;
  const path = resolve(cwd, write.path);
  return path === resolve(root, write.path) ? write : { ...write, path };
}

/**
 * A write the built-in protections allowed (`allowed`), refused because the config did not
 * load (`why`): its rules and plugins cannot be asked.
 */
export function refusedUnloaded(allowed: GateDecision, path: string, why: string): GateDecision {
  return {
    decision: "deny",
    reason: unloadedConfigRefusal(path, why),
    path: allowed.path,
    ...(allowed.relativePath === undefined ? {} : { relativePath: allowed.relativePath }),
    source: "internal",
  };
}

/** What the model is told when the gate changed its write before it ran. */
export function modifiedNote(tool: string, decision: GateDecision): string {
  return gateModified(tool, decision.modified?.summary);
}

/**
 * Why a write is refused when the gate itself failed (a bug, not a rule): the gate fails
 * closed, as it does for a broken plugin. What every agent's pre-write hook answers then.
 */
export const gateFailedReason = gateFailed;
