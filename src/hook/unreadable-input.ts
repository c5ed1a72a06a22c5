/**
 * What a hook answers when it cannot read or parse its input (too large, stdin never
 * closed, not JSON): it cannot tell which file the agent is about to write, so a pre-write
 * call is denied in the agent's own deny form. The event may be unknown too: it is looked
 * for at the start of what arrived; when it cannot be found, the answer is the deny form
 * all the same (fail closed). For a post event, that deny is harmless or ignored: Claude
 * Code and Codex ignore a PreToolUse-shaped answer to another event (at worst they note a
 * mismatched event name), Cursor reads `permission` on preToolUse only, and Gemini's and
 * opencode's only pre-write event is the one they call with tool input first.
 */
import type { AgentProtocol, HookReply } from "../model/hook.ts";
import { unreadableInput } from "./messages.ts";

/** How much of the input is searched for the event name (it comes before the tool input). */
const SNIFF_CHARS = 1024 * 1024;

/** The `hook_event_name` near the start of a payload, even a cut or malformed one; null if none. */
export function sniffEvent(text: string): string | null {
  const match = /"hook_event_name"\s*:\s*"([^"\\]{1,64})"/.exec(text.slice(0, SNIFF_CHARS));
  return match?.[1] ?? null;
}

/** True when the call is (or may be, event unknown) the agent's pre-write event. */
export function mayBePreWrite(agent: AgentProtocol, event: string | null): boolean {
  return event === null || event === agent.preWriteEvent;
}

/**
 * The reply to a hook call whose input could not be read or parsed (`problem` says why):
 * deny when it is or may be a pre-write call, else nothing but the note on stderr.
 */
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
