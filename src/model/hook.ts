// The shapes a hook call exchanges between the agent-neutral pipeline (src/hook/) and an
// agent's folder (src/agents/<name>/).
import type { ChangeKind } from "./batch.ts";
import type { GateDecision, PendingWrite } from "./gate-types.ts";

/** What `cpilot hook <agent>` prints and exits with, in the agent's protocol. */
export interface HookReply {
  /** Printed as one JSON line on stdout; null prints nothing. */
  readonly json: Record<string, unknown> | null;
  /** For the person (the agent's log or verbose view). */
  readonly stderr?: string;
  /** Default 0. Only protocols that mean something by another code set it. */
  readonly exitCode?: number;
}

export const EMPTY_REPLY: HookReply = { json: null };

/**
 * What cpilot does with a hook call, whatever the agent calls its event: the write gate
 * before a tool writes (`pre-write`) or before one that writes nothing (`pre-tool`), the
 * callbacks after a write (`post-write`), the results that waited after any other tool
 * (`post-tool`), at the end of a batch of tool calls, when the agent would stop, when a
 * session starts, and when the person sends a prompt.
 */
export type HookEventKind =
  | "pre-write"
  | "pre-tool"
  | "post-write"
  | "post-tool"
  | "batch-end"
  | "stop"
  | "session-start"
  | "prompt";

/** One hook call as the pipeline routes it, agent-neutral. */
export interface HookEvent {
  readonly kind: HookEventKind;
  /** The agent's own name for it (`PreToolUse`), for messages to the person. */
  readonly name: string;
  readonly session: string;
  /** The agent's folder: the project's config is found from there. */
  readonly cwd: string;
  /** The files the call writes or wrote, as the agent named them: where there is no config in `cwd`, theirs decides. */
  readonly written: readonly (string | null | undefined)[];
  /** pre-write: what the call writes, one write per file (a patch may write several). */
  readonly writes?: readonly PendingWrite[];
  /** pre-write: why the call cannot be gated (a patch cpilot cannot read): it is denied. */
  readonly refused?: string;
  /**
   * post-write and batch-end: what the call wrote, as the agent named the files (none when
   * its tool failed); the pipeline checks those inside the project.
   */
  readonly edits?: readonly WrittenFile[];
  /** post-write: the agent's id of the tool call, when it gives one. */
  readonly callId?: string;
  /**
   * post-write: a name for what the call reports, when the agent reports one edit in two
   * events; only the first call with it in the session checks the edit.
   */
  readonly once?: string;
  /**
   * post-write: the agent shows this call's reply to nobody; what the pipeline found waits
   * in the session's inbox for the next call that is heard.
   */
  readonly unheard?: boolean;
  /** post-tool and post-write: the call ran the agent's shell, which may have written any file. */
  readonly shell?: boolean;
  /** session-start: why the session (re)starts: startup, resume, clear or compact. */
  readonly source?: string;
  /**
   * prompt: the call starts the agent's turn; `id`, when the agent fires the event again
   * within one turn, names the turn (its first call starts it).
   */
  readonly turn?: { readonly id?: string };
  /** stop: the subagent that would stop (its own count of held stops); absent for the session's. */
  readonly stopper?: string;
}

/** A file a tool call wrote: its path as the agent named it, and how it changed. */
export interface WrittenFile {
  readonly path: string;
  readonly kind: ChangeKind;
  /** batch-end: the id of the tool call that wrote it, when the agent gives one. */
  readonly callId?: string;
}

/**
 * What the pipeline has for the model after a write or a tool call: the failures it must
 * act on, then the rest; the agent's translator puts it in its reply.
 */
export interface HookAnswer {
  readonly failures: readonly string[];
  readonly info: readonly string[];
}

/** What the write gate said about every write of one tool call (a patch may write several files). */
export type GateVerdict =
  | { readonly kind: "allow" }
  | {
      readonly kind: "deny";
      readonly reason: string;
      readonly hint?: string;
      /** A deny a person may overrule, where the agent can ask them (see GateDecision). */
      readonly askPerson?: boolean;
    }
  | {
      readonly kind: "modify";
      readonly changes: readonly { write: PendingWrite; decision: GateDecision }[];
    };

/** The stop gate's verdict: hold the stop with a text for the model, or let it stop. */
export type StopVerdict =
  | { readonly block: true; readonly reason: string }
  /** `notes` for the person (what was still open, that the gate gave up); null when nothing. */
  | { readonly block: false; readonly notes: string | null };

/** An agent's hook handler: its hook JSON (stdin text) in, its protocol reply out. Never throws. */
export type HookHandler = (
  stdin: string,
  /** `args`: the hook command's arguments after the agent's name (`--rewake`, `--session`). */
  options: { cwd: string; env: NodeJS.ProcessEnv; args?: readonly string[] },
) => Promise<HookReply>;

/**
 * The protocol facts shared code needs to answer for an agent without its handler (an input
 * that cannot be read, a hook that was stopped, the gate's agent-state folders). Each agent folder keeps them in its
 * own small module, which both its `agent.ts` and its handler import.
 */
export interface AgentProtocol {
  /** The `hook_event_name` of the call made before a write (the one the gate answers). */
  readonly preWriteEvent: string;
  /** The agent's form for denying a pre-write call, `reason` for the model. */
  denyForm(reason: string): Record<string, unknown>;
  /** What stdout carries when a call other than pre-write has nothing to say: null (nothing) or `{}`. */
  readonly emptyJson: Record<string, unknown> | null;
  /** Folders outside the project where the agent writes its own notes (plans, todos); the gate allows them. */
  stateDirs(home: string, env: NodeJS.ProcessEnv): string[];
  /** The variable the agent sets to the project folder for hook commands, if any. */
  readonly projectDirVar?: string;
}

/** What the hook pipeline needs of an agent: its name, its protocol facts and its handler. */
export interface HookAgent extends AgentProtocol {
  readonly name: string;
  /** Load the handler that parses a hook payload into events and answers in the agent's protocol. */
  hook(): Promise<HookHandler>;
}
