/** `cpilot hook <agent>`: the one command an agent's hook config calls. Protocol on stdout only. */
import { shadowedBySession } from "../agents/kit/session-hooks.ts";
import { AGENT_NAMES } from "../agents/registry.ts";
import { hookServerWanted } from "../hook-server/address.ts";
import { PARENT_PID_ENV } from "../platform/parent-death.ts";
import { isCompiledBinary } from "../platform/self-command.ts";
import { keepStdoutForProtocol } from "../platform/stdio.ts";
import { answerHookCall } from "./hook-answer.ts";
import { answered } from "./hook-emit.ts";
import { type HandOver, handOver } from "./hook-hand-over.ts";
import { ISOLATED_ENV } from "./hook-isolated-env.ts";

/**
 * Answer one hook call. Always exits 0 with protocol JSON (or nothing) on stdout: Claude
 * Code drops exit 1 silently, and exit 2 in PostToolBatch ends the agent's loop. A call the
 * hook server may answer is handed to it before anything else is loaded (the agent, the
 * engine): a served call's own process does little more than start and exit.
 */
export async function hookCommand(args: string[], ctx: { cwd: string }): Promise<number> {
  // The agent parses stdout: a config's or a callback's console.log must not land there.
  keepStdoutForProtocol();
  const [agent, ...rest] = args;
  let handedBack: (HandOver & { kind: "here" }) | undefined;
  if (agent !== undefined && forTheServer(agent, rest, process.env)) {
    const outcome = await handOver(agent, ctx.cwd);
    if (outcome.kind === "answered") answered(outcome.code);
    handedBack = outcome;
  }
  return answerHookCall(args, ctx, handedBack);
}

/**
 * An agent's own hook call (not a config-loading child answering its parent, not one that
 * steps aside for a session's hooks), and the hook server is wanted.
 */
function forTheServer(agent: string, rest: readonly string[], env: NodeJS.ProcessEnv): boolean {
  return (
    AGENT_NAMES.includes(agent) &&
    env[ISOLATED_ENV] === undefined &&
    env[PARENT_PID_ENV] === undefined &&
    !shadowedBySession(agent, rest, env) &&
    hookServerWanted(env, isCompiledBinary())
  );
}
