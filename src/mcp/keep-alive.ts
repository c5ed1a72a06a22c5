import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { ServerNotification, ServerRequest } from "@modelcontextprotocol/sdk/types.js";

export type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** Milliseconds between progress notifications while a call waits for its callbacks. */
export const DEFAULT_PROGRESS_MS = 5000;

/** Progress notifications when the client asked (a progressToken), so one that resets its timeout on progress does not give up on a long callback. */
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
