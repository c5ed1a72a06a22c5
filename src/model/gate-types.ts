/**
 * The shapes the write gate takes and returns. Surfaces (agent hooks, MCP edit tools,
 * `cpilot gate test`) build a PendingWrite and act on the GateDecision.
 */

/** A write an agent wants to make, before it happens. */
export interface PendingWrite {
  /** The agent's tool name, e.g. "Write", "Edit", "write_file". */
  readonly tool: string;
  /** As the agent gave it: absolute, or relative to the project root. */
  readonly path: string;
  /** The whole new content (Write-style tools). */
  readonly content?: string;
  /** Edit-style tools: the text to replace and its replacement. */
  readonly oldString?: string;
  readonly newString?: string;
  readonly replaceAll?: boolean;
  /** e.g. "claude"; who asked, for the log and plugins. */
  readonly agent?: string;
  readonly session?: string;
}

/** What a plugin receives on stdin (or as its argument, for a function plugin). */
export interface PluginInput {
  readonly hook: "pre_write";
  readonly tool: string;
  /** Relative to the root, posix separators. */
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

/** What a plugin answers. `modify` changes the path and/or the whole content. */
export interface PluginResult {
  decision: "allow" | "deny" | "modify";
  reason?: string;
  path?: string;
  content?: string;
}

/** A plugin written in TypeScript, listed in `gate.plugins`. Throwing denies the write. */
export type GatePluginFunction = (write: PluginInput) => PluginResult | Promise<PluginResult>;

/** What happens to an `ask` rule when no person can be asked. */
export type HeadlessMode = "deny" | "allow" | "rules-only";

/** `prompt`: ask on the terminal when there is one; otherwise a headless mode, always. */
export type AskMode = "prompt" | HeadlessMode;

/**
 * Asks the person a y/N question. Resolves true (yes), false (no, or no answer in time),
 * or null when there is no terminal to ask on.
 */
export type TtyPrompt = (question: string, timeoutMs: number) => Promise<boolean | null>;

export interface GateDecision {
  decision: "allow" | "deny";
  /** For the model: what rule, why, and what to do instead. */
  reason: string;
  /** For the person: which config key changes this, when one does. */
  hint?: string;
  /** Absolute, normalized path the write must go to (after any plugin changed it). */
  path: string;
  /** Relative to the root, posix separators; absent when the path is outside the root. */
  relativePath?: string;
  /** Present when a plugin replaced the content: write this instead. */
  content?: string;
  /** Present when a plugin changed the write; `summary` is for the agent. */
  modified?: { summary: string };
  /** "rule:<pattern>", "default:<name>", "plugin:<name>", "ask:<how>" or "internal". */
  source: string;
  /**
   * A deny a person may overrule (cpilot's own config files): a surface that can ask the
   * person (Claude Code's "ask") asks instead of denying.
   */
  askPerson?: boolean;
  /** Set when an ask rule was resolved: on the terminal or by a headless mode. */
  asked?: "tty" | `headless:${HeadlessMode}`;
}
