// The write gate's shapes: surfaces build a PendingWrite and act on the GateDecision.

export interface PendingWrite {
  readonly tool: string;
  /** As the agent gave it: absolute, or relative to the project root. */
  readonly path: string;
  readonly content?: string;
  readonly oldString?: string;
  readonly newString?: string;
  readonly replaceAll?: boolean;
  readonly agent?: string;
  readonly session?: string;
}

export interface PluginInput {
  readonly hook: "pre_write";
  readonly tool: string;
  readonly path: string;
  readonly absolute_path: string;
  readonly content?: string;
  readonly old_string?: string;
  readonly new_string?: string;
  readonly replace_all?: boolean;
  readonly agent: string | null;
  readonly session: string | null;
  readonly root: string;
}

/** `modify` changes the path and/or the whole content. */
export interface PluginResult {
  decision: "allow" | "deny" | "modify";
  reason?: string;
  path?: string;
  content?: string;
}

/** Throwing denies the write. */
export type GatePluginFunction = (write: PluginInput) => PluginResult | Promise<PluginResult>;

export type HeadlessMode = "deny" | "allow" | "rules-only";

/** `prompt`: ask on the terminal when there is one; otherwise a headless mode. */
export type AskMode = "prompt" | HeadlessMode;

/** True (yes), false (no, or no answer in time), or null when there is no terminal. */
export type TtyPrompt = (question: string, timeoutMs: number) => Promise<boolean | null>;

export interface GateDecision {
  decision: "allow" | "deny";
  /** For the model: what rule, why, and what to do instead. */
  reason: string;
  /** For the person: which config key changes this. */
  hint?: string;
  /** Where the write must go (after any plugin changed it). */
  path: string;
  relativePath?: string;
  /** A plugin replaced the content: write this instead. */
  content?: string;
  modified?: { summary: string };
  /** "rule:<pattern>", "default:<name>", "plugin:<name>", "ask:<how>" or "internal". */
  source: string;
  /** A deny a person may overrule (cpilot's own config): a surface that can ask asks instead. */
  askPerson?: boolean;
  asked?: "tty" | `headless:${HeadlessMode}`;
}
