// A hook call handed to a process that stays up (`cpilot run`'s hook listener), and its answer.
import type { HookReply } from "../agents/kit/hook-reply.ts";

/** Everything that makes a hook call what it is, so it is answered as the caller's own process would. */
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
  /** The caller answers the call itself: the listener is busy, or the config must load fresh. */
  | { readonly served: false; readonly reason: string };
