/**
 * Input that cannot be read (too large, never closed, not JSON) says nothing of what the
 * agent will write, so a pre-write call (or a call whose event cannot be found) is denied
 * in the agent's deny form: fail closed. Agents ignore that form on other events.
 */
import type { AgentProtocol, HookReply } from "../model/hook.ts";
import { unreadableInput } from "./messages.ts";

/** The event name comes before the tool input. */
const SNIFF_CHARS = 1024 * 1024;

/** Works on a cut or malformed payload; null if none. */
export function sniffEvent(text: string): string | null {
  const match = /"hook_event_name"\s*:\s*"([^"\\]{1,64})"/.exec(text.slice(0, SNIFF_CHARS));
  return match?.[1] ?? null;
}

/** Event unknown counts as maybe. */
export function mayBePreWrite(agent: AgentProtocol, event: string | null): boolean {
  return event === null || event === agent.preWriteEvent;
}

/** Deny when it is or may be a pre-write call, else only the note on stderr. */
export function unreadableInputReply(
  agent: AgentProtocol,
  text: string,
  problem: string,
): HookReply {
  const stderr = `cpilot: ${problem}`;
  const event = sniffEvent(text);
  if (!mayBePreWrite(agent, event)) return { json: agent.emptyJson, stderr };
  const reason = unreadableInput(problem.replace(/^Cannot read the hook input: /, ""));
  return { json: agent.denyForm(reason), stderr };
}
