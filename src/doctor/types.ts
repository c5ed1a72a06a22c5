import type { AddOnCheck } from "../agents/contract.ts";

export interface AgentCheck {
  /** The agent's name as commands take it (`cpilot install <agent>`). */
  readonly agent: string;
  /** Why it counts as found: its folder in the project, in the home folder, its CLI on PATH. */
  readonly foundBy: string[];
  readonly hooks: { readonly wired: boolean; readonly path: string | null };
  readonly mcp: { readonly wired: boolean; readonly path: string | null } | null;
  /** Only when the project itself uses the agent (its folder is in the project). */
  readonly problem: string | null;
  /** Claude Code's mod, each with its problem if any. */
  readonly addOns: readonly AddOnCheck[];
}

export interface CallbackCheck {
  readonly name: string;
  /** null for a TypeScript function. */
  readonly command: string | null;
  readonly status: "ok" | "missing" | "n/a";
  readonly detail: string;
}

export interface DoctorReport {
  readonly root: string;
  readonly config: {
    readonly path: string | null;
    readonly ok: boolean;
    readonly error: string | null;
    /** true when kept between calls, else why it is imported on every call; null for data or a config that does not load. */
    readonly kept: true | string | null;
  };
  readonly agents: AgentCheck[];
  readonly callbacks: CallbackCheck[];
  readonly problems: number;
}
