import { homedir } from "node:os";
import { isAbsolute, resolve } from "node:path";
import type { ResolvedConfig } from "../config/resolve.ts";
import type { GateDecision, PendingWrite } from "../model/gate-types.ts";
import type { AgentProtocol } from "../model/hook.ts";
import { unloadedConfigNote, unloadedConfigWhy } from "./config.ts";
import { gateFailed, gateModified, unloadedConfigRefusal } from "./messages.ts";

export function stateDirsHere(agent: AgentProtocol, env = process.env): string[] {
  return agent.stateDirs(env.HOME || homedir(), env);
}

/** `ask` rules use the headless mode. `cwd`: the agent's folder, which relative paths are from. */
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
  // The config did not load: what the built-ins allow may be what its rules or plugins
  // deny (a config broken through a file it imports, which the agent may edit, must not
  // open the gate). The MCP edit tools refuse the same way.
  if (decision.decision === "deny") {
    decision.reason += unloadedConfigNote(config) ?? "";
    return decision;
  }
  return refusedUnloaded(decision, write.path, why);
}

function fromAgentFolder(write: PendingWrite, root: string, cwd: string | undefined): PendingWrite {
  if (cwd === undefined || isAbsolute(write.path) || write.path.includes("\0")) return write;
  const path = resolve(cwd, write.path);
  return path === resolve(root, write.path) ? write : { ...write, path };
}

export function refusedUnloaded(allowed: GateDecision, path: string, why: string): GateDecision {
  return {
    decision: "deny",
    reason: unloadedConfigRefusal(path, why),
    path: allowed.path,
    ...(allowed.relativePath === undefined ? {} : { relativePath: allowed.relativePath }),
    source: "internal",
  };
}

export function modifiedNote(tool: string, decision: GateDecision): string {
  return gateModified(tool, decision.modified?.summary);
}

/** The gate itself failed (a bug, not a rule): it fails closed, as for a broken plugin. */
export const gateFailedReason = gateFailed;
