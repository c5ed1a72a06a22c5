/**
 * `cpilot _format-call AGENT`: what an agent's mod runs before a Write or Edit. One line of
 * JSON out: `{ input }` or `{ why }`. Always exit 0: the mod passes the call through on
 * anything but a reply it can read.
 */
import { loadAgent } from "../agents/registry.ts";
import { readStdin } from "../hook/hook-input.ts";
import { writeOut } from "../platform/stdio.ts";

export async function formatCallCommand(agentName: string): Promise<number> {
  const agent = await loadAgent(agentName);
  const answer = await agent?.formatCall?.();
  const input = await readStdin();
  const reply =
    answer === undefined
      ? { why: `no mod of "${agentName}" asks cpilot` }
      : input.complete
        ? await answer(input.text, process.cwd())
        : { why: "no request on stdin" };
  writeOut(`${JSON.stringify(reply)}\n`);
  return 0;
}
