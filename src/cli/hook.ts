/** `cpilot hook <agent>`: the one command an agent's hook config calls. Protocol on stdout only. */
import { keepStdoutForProtocol } from "../platform/stdio.ts";
import { answerHookCall } from "./hook-answer.ts";

/**
 * Answer one hook call. Always exits 0 with protocol JSON (or nothing) on stdout: Claude
 * Code drops exit 1 silently, and exit 2 in PostToolBatch ends the agent's loop.
 */
export async function hookCommand(args: string[], ctx: { cwd: string }): Promise<number> {
  // The agent parses stdout: a config's or a callback's console.log must not land there.
  keepStdoutForProtocol();
  return answerHookCall(args, ctx);
}
