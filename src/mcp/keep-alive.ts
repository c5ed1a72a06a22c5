import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { ServerNotification, ServerRequest } from "@modelcontextprotocol/sdk/types.js";

/** What a tool handler gets besides its arguments. */
export type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** Seconds between progress notifications while a call waits for its callbacks. */
export const DEFAULT_PROGRESS_MS = 5000;

/**
 * While `work` runs, send progress notifications when the client asked for them (a
 * progressToken), so a client that resets its timeout on progress does not give up on a
 * long blocking callback (a full type check, a test run).
 */
export async function keepAlive<T>(
  extra: ToolExtra,
  work: Promise<T>,
  everyMs: number,
): Promise<T> {
  const token = extra._meta?.progressToken;
  if (token === undefined || everyMs <= 0) return work;
  const started = Date.now();
  let progress = 0;
  const timer = setInterval(() => {
    progress++;
    const seconds = Math.round((Date.now() - started) / 1000);
    extra
      .sendNotification({
        method: "notifications/progress",
        params: { progressToken: token, progress, message: `running callbacks (${seconds} s)` },
      })
      .catch(() => undefined);
  }, everyMs);
  try {
    return await work;
  } finally {
    clearInterval(timer);
  }
}
