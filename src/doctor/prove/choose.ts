/** The live proof when cpilot can drive the agent and its CLI is found, else the hook-level one, saying which, so the report never claims more. */
import { existsSync } from "node:fs";
import type { Agent } from "../../agents/contract.ts";
import { onPath } from "../callback-command.ts";
import { type ProofReport, proveDelivery } from "../prove.ts";
import { liveDriver } from "./drivers.ts";
import { proveLive } from "./live.ts";

export async function proveOnThisMachine(
  agent: Agent,
  root: string,
  home: string,
  env: NodeJS.ProcessEnv,
  options: { agentBin?: string | undefined },
): Promise<ProofReport> {
  const driver = liveDriver(agent);
  const bin =
    options.agentBin ??
    agent.programs.map((name) => onPath(name, env)).find((p) => p !== null) ??
    null;
  if (driver !== null && bin !== null && existsSync(bin)) {
    const report = await proveLive(agent, await driver, bin, root, home, env);
    const wiredHere = (await agent.hookPlaces(root, home, env)).find((p) => p.wired);
    const theirs = wiredHere?.commands[0];
    if (theirs !== undefined && report.command !== null && theirs !== report.command) {
      const note = `this project's hook command is \`${theirs}\` (${wiredHere?.path}), the proof's \`${report.command}\`: plain \`cpilot doctor\` checks that yours starts`;
      return { ...report, notes: [...(report.notes ?? []), note] };
    }
    if (wiredHere) return report;
    const note = `cpilot is not wired into ${agent.displayName} in this project yet: \`cpilot install ${agent.name}\` writes what the proof used`;
    return { ...report, notes: [...(report.notes ?? []), note] };
  }
  const why =
    driver === null
      ? `cpilot cannot run ${agent.displayName} on its own model yet, so ${agent.displayName} itself was not started`
      : options.agentBin !== undefined
        ? `no ${agent.displayName} CLI at ${options.agentBin}`
        : `${agent.displayName}'s CLI (${agent.programs.join(", ")}) is not on PATH: pass --agent-bin PATH for the live proof`;
  const report = await proveDelivery(agent, root, home, env);
  return { ...report, level: "hooks", notes: [why, ...(report.notes ?? [])] };
}
