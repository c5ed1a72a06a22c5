import { dirname } from "node:path";
import { failingWaits } from "../../agent-session/inbox.ts";
import { takeDelivery } from "../../agent-session/notices.ts";
import { findConfig } from "../../config/find.ts";
import { backgroundInFlight } from "../../hook/background-waiting.ts";
import type { HookHandler, HookReply } from "../../model/hook.ts";
import { NO_REPLY, parseHookInput } from "./protocol.ts";

const POLL_MS = 250;

/**
 * Run in the background (`asyncRewake`): once the session's background callbacks have all
 * reported, a waiting failure is handed over with exit 2, which wakes the model at once.
 * Stopped at its timeout, nothing is lost: the results wait in the inbox.
 */
export const rewakeAfterStop: HookHandler = async (stdin, options) => {
  const parsed = parseHookInput(stdin, options.env.CLAUDE_PROJECT_DIR || options.cwd);
  if (!parsed.ok || parsed.input.fromCursor !== null) return NO_REPLY;
  const { session, cwd } = parsed.input;
  const config = findConfig(cwd);
  if (config === null) return NO_REPLY;
  const root = dirname(config);
  while (backgroundInFlight(root, session)) await new Promise((r) => setTimeout(r, POLL_MS));
  if (!failingWaits(root, session)) return NO_REPLY;
  const waiting = takeDelivery(root, session);
  if (waiting.failing.length === 0) return NO_REPLY; // another hook call delivered them first
  return wake([...waiting.failing, ...waiting.info]);
};

function wake(parts: readonly string[]): HookReply {
  const head = "cpilot: background checks finished after you stopped, and failed:";
  return { json: null, stderr: [head, ...parts].join("\n\n"), exitCode: 2 };
}
