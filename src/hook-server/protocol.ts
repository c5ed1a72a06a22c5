// What a hook call sends the hook server and what comes back: one JSON line each way.
import type { HookReply } from "../agents/kit/hook-reply.ts";

/** Everything that makes a hook call what it is, so the server can answer it as the caller would. */
export interface HookRequest {
  readonly agent: string;
  /** The agent's hook JSON, as read from the caller's stdin. */
  readonly stdin: string;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly umask: number;
}

export type HookResponse =
  | ({ readonly served: true } & HookReply)
  /** The caller answers the call itself: the server is busy, or the config must load fresh. */
  | { readonly served: false; readonly reason: string };

/** JSON.stringify never writes a raw newline, so one line is one message. */
export const MESSAGE_END = "\n";
