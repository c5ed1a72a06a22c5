/**
 * `cpilot _format-call AGENT`: what an agent's mod runs before a Write or Edit is recorded
 * (Claude Code's format-on-save, src/agents/claude/mod/). Reads the mod's request on stdin and
 * writes one line of JSON: `{ input }` (the rewritten arguments) or `{ why }` (leave them).
 * Always exit 0: the mod passes the call through on anything but a reply it can read.
 */
import { loadAgent } from "../agents/registry.ts";
import { readStdin } from "../hook/hook-input.ts";
import { writeOut } from "../platform/stdio.ts";

/** Answer one request of `agentName`'s mod. */
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
