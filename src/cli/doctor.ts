/** `cpilot doctor`: is cpilot wired into each agent here, does the config load, does each callback's command exist? */

import { homedir } from "node:os";
import { dirname, resolve } from "node:path";
import { diagnose } from "../doctor/diagnose.ts";
import { renderDoctor } from "../doctor/render.ts";
import { platformLimits } from "../platform/limits.ts";
import { writeErr, writeOut } from "../platform/stdio.ts";
import { CpilotError } from "../util/errors.ts";
import { parseFlags } from "./_common.ts";

export { firstProgram } from "../doctor/callback-command.ts";

const USAGE = "cpilot doctor [--json] [--config PATH] [--prove AGENT [--agent-bin PATH]]";

export async function doctorCommand(args: string[], ctx: { cwd: string }): Promise<number> {
  const { values } = parseFlags(
    args,
    {
      json: { type: "boolean" },
      config: { type: "string" },
      prove: { type: "string" },
      "agent-bin": { type: "string" },
    },
    USAGE,
  );
  if (values.prove !== undefined)
    return proveCommand(values.prove, values.config, ctx.cwd, values["agent-bin"]);
  const report = await diagnose(ctx.cwd, values.config ? { config: values.config } : {});
  writeOut(`${values.json ? JSON.stringify(report, null, 2) : renderDoctor(report)}\n`);
  // What this platform does differently from Linux, where the test suite runs end to end.
  for (const limit of platformLimits()) writeErr(`note (${process.platform}): ${limit}\n`);
  return report.problems === 0 ? 0 : 1;
}

async function proveCommand(
  name: string,
  configPath: string | undefined,
  cwd: string,
  agentBin: string | undefined,
): Promise<number> {
  const [{ AGENT_NAMES, loadAgent }, prove, { findConfig }, { proveOnThisMachine }] =
    await Promise.all([
      import("../agents/registry.ts"),
      import("../doctor/prove.ts"),
      import("../config/find.ts"),
      import("../doctor/prove/choose.ts"),
    ]);
  const agent = await loadAgent(name);
  if (agent === undefined)
    throw new CpilotError(
      `Cannot prove delivery for "${name}": cpilot knows ${AGENT_NAMES.join(", ")}`,
      {
        hint: `usage: ${USAGE}`,
      },
    );
  const found = configPath ?? findConfig(cwd);
  const root = found === null ? cwd : dirname(resolve(cwd, found));
  const report = await proveOnThisMachine(agent, root, process.env.HOME || homedir(), process.env, {
    agentBin: agentBin === undefined ? undefined : resolve(cwd, agentBin),
  });
  writeOut(`${prove.renderProof(report)}\n`);
  return prove.proofHolds(report) ? 0 : 1;
}
