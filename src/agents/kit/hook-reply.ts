/**
 * What `cpilot hook <agent>` prints and exits with. Each adapter builds one in its agent's
 * protocol; src/cli/hook.ts writes it out.
 */
export interface HookReply {
  /** Printed as one JSON line on stdout; null prints nothing. */
  readonly json: Record<string, unknown> | null;
  /** For the person (the agent's log or verbose view). */
  readonly stderr?: string;
  /** Default 0. Only protocols that mean something by another code set it. */
  readonly exitCode?: number;
}

export const EMPTY_REPLY: HookReply = { json: null };
