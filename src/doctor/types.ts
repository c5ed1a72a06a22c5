import type { AddOnCheck } from "../agents/contract.ts";

/** What the doctor found about one agent. */
export interface AgentCheck {
  /** The agent's name as commands take it (`cpilot install <agent>`). */
  readonly agent: string;
  /** Why it counts as found: its folder in the project, in the home folder, its CLI on PATH. */
  readonly foundBy: string[];
  readonly hooks: { readonly wired: boolean; readonly path: string | null };
  readonly mcp: { readonly wired: boolean; readonly path: string | null } | null;
  /** A problem only when the project itself uses the agent (its folder is in the project). */
  readonly problem: string | null;
  /** What else cpilot installed for it (Claude Code's mod), each with its problem if any. */
  readonly addOns: readonly AddOnCheck[];
}

export interface CallbackCheck {
  readonly name: string;
  /** The program it starts; null for a TypeScript function. */
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
    /**
     * A script config's value kept between calls (true), or why it is imported on every
     * call; null for JSON/YAML (data already) or a config that does not load.
     */
    readonly kept: true | string | null;
  };
  readonly agents: AgentCheck[];
  readonly callbacks: CallbackCheck[];
  readonly problems: number;
}
