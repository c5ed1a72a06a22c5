/** `cpilot hook <agent>`: the one command an agent's hook config calls. Protocol on stdout only. */
import { AGENT_NAMES, loadAgent } from "../agents/registry.ts";
import { answerHookCall } from "../hook/call.ts";
import { keepStdoutForProtocol } from "../platform/stdio.ts";
import { CpilotError } from "../util/errors.ts";

const usage = `cpilot hook ${AGENT_NAMES.join("|")}   (reads the hook event JSON on stdin; the agent calls it)`;

/**
 * Answer one hook call. Always exits 0 with protocol JSON (or nothing) on stdout: Claude
 * Code drops exit 1 silently, and exit 2 in PostToolBatch ends the agent's loop.
 */
export async function hookCommand(args: string[], ctx: { cwd: string }): Promise<number> {
  // The agent parses stdout: a config's or a callback's console.log must not land there.
  keepStdoutForProtocol();
  const [name, ...rest] = args;
  const agent = name === undefined ? undefined : await loadAgent(name);
  if (agent === undefined) {
    throw new CpilotError(
      `Cannot answer hooks for "${name ?? ""}": cpilot knows ${AGENT_NAMES.join(", ")}`,
      { hint: `usage: ${usage}` },
    );
  }
  return answerHookCall(agent, rest, { cwd: ctx.cwd, usage });
}
