// The shapes a hook call exchanges between the pipeline (src/hook/) and an agent's folder.
import type { ChangeKind } from "./batch.ts";
import type { GateDecision, PendingWrite } from "./gate-types.ts";

export interface HookReply {
  /** One JSON line on stdout; null prints nothing. */
  readonly json: Record<string, unknown> | null;
  readonly stderr?: string;
  readonly exitCode?: number;
}

export const EMPTY_REPLY: HookReply = { json: null };

/** What cpilot does with a hook call, whatever the agent names its event. */
export type HookEventKind =
  | "pre-write"
  | "pre-tool"
  | "post-write"
  | "post-tool"
  | "batch-end"
  | "stop"
  | "session-start"
  | "prompt";

export interface HookEvent {
  readonly kind: HookEventKind;
  /** The agent's own name for it, for messages to the person. */
  readonly name: string;
  readonly session: string;
  /** The project's config is found from there. */
  readonly cwd: string;
  /** As the agent named them: where `cwd` has no config, theirs decides. */
  readonly written: readonly (string | null | undefined)[];
  readonly writes?: readonly PendingWrite[];
  /** pre-write: why the call cannot be gated (a patch cpilot cannot read): it is denied. */
  readonly refused?: string;
  /** post-write and batch-end: none when the tool failed. */
  readonly edits?: readonly WrittenFile[];
  readonly callId?: string;
  /** post-write: for an edit the agent reports in two events, only the first call with it checks it. */
  readonly once?: string;
  /** post-write: nobody sees this reply; findings wait in the inbox for the next heard call. */
  readonly unheard?: boolean;
  /** The call ran the agent's shell, which may have written any file. */
  readonly shell?: boolean;
  /** With `shell`: the command's text as the agent sent it, when it names one. */
  readonly command?: string;
  readonly source?: string;
  /** prompt: starts the agent's turn; `id` names it when the event fires again within one turn. */
  readonly turn?: { readonly id?: string };
  /** stop: the subagent that would stop; absent for the session's. */
  readonly stopper?: string;
}

export interface WrittenFile {
  readonly path: string;
  readonly kind: ChangeKind;
  readonly callId?: string;
}

export interface HookAnswer {
  readonly failures: readonly string[];
  readonly info: readonly string[];
}

export type GateVerdict =
  | { readonly kind: "allow" }
  | {
      readonly kind: "deny";
      readonly reason: string;
      readonly hint?: string;
      readonly askPerson?: boolean;
    }
  | {
      readonly kind: "modify";
      readonly changes: readonly { write: PendingWrite; decision: GateDecision }[];
    };

export type StopVerdict =
  | { readonly block: true; readonly reason: string }
  /** `notes` for the person; null when nothing. */
  | { readonly block: false; readonly notes: string | null };

/** Never throws. */
export type HookHandler = (
  stdin: string,
  options: { cwd: string; env: NodeJS.ProcessEnv; args?: readonly string[] },
) => Promise<HookReply>;

/** The protocol facts shared code needs to answer for an agent without its handler. */
export interface AgentProtocol {
  /** The call made before a write, the one the gate answers. */
  readonly preWriteEvent: string;
  denyForm(reason: string): Record<string, unknown>;
  /** When a call other than pre-write has nothing to say: null (nothing) or `{}`. */
  readonly emptyJson: Record<string, unknown> | null;
  /** Folders outside the project where the agent writes its own notes; the gate allows them. */
  stateDirs(home: string, env: NodeJS.ProcessEnv): string[];
  readonly projectDirVar?: string;
}

export interface HookAgent extends AgentProtocol {
  readonly name: string;
  hook(): Promise<HookHandler>;
}
