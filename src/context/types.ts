/**
 * The shapes of the context-update flow: agent text ─► `UpdateCommand`s ─► `UpdateResult`s.
 */

/** What a `<context-update>` block asks for. */
export type Action = "add" | "update" | "remove" | "complete";

/** The actions, in the order the docs list them. */
export const ACTIONS: readonly Action[] = ["add", "update", "remove", "complete"];

/** One `<context-update>` block, as written; `validateUpdate` says whether it can apply. */
export interface UpdateCommand {
  /** Target file, relative to the context directory. */
  file: string;
  /** Should be one of `ACTIONS`; kept as written so a typo can be reported. */
  action: string;
  section?: string;
  id?: string;
  /** The payload, lines joined by "\n", without leading or trailing blank lines. */
  content: string;
  /** 1-based line of the opening tag in the text it was parsed from. */
  line?: number;
  /** Attribute names other than file, action, section and id (always a problem). */
  unknownAttributes?: string[];
}

/** A block that could not be read; the well-formed blocks around it still apply. */
export interface ParseError {
  /** 1-based line where the broken block starts. */
  line: number;
  message: string;
  hint?: string;
}

/** What `parseUpdates` returns: every well-formed block plus every broken one. */
export interface ParseResult {
  updates: UpdateCommand[];
  errors: ParseError[];
}

export interface ApplyOptions {
  /** Absolute path of the context directory; every file stays inside it. */
  contextDir: string;
  /**
   * The project root, when the context directory was named relative to it: then the
   * directory must really be inside it (a `.context` symlinked to ~/.claude is refused).
   */
  projectRoot?: string;
  /** Compute results and diffs, write nothing. */
  dryRun?: boolean;
  /** Copy FILE.md to FILE.md.bak before the first write (one backup, overwritten). */
  backup?: boolean;
  /** Glob patterns (`*`, `**`, `?`) relative to `contextDir`. Default `["*.md"]`. */
  allowedFiles?: readonly string[];
  /** `complete` also moves the task to a "Completed" section, stamped with the date. */
  moveCompleted?: boolean;
  /** The clock for `moveCompleted` dates. Default: now. */
  now?: Date;
}

/** The outcome of one command. */
export interface UpdateResult {
  file: string;
  action: string;
  section?: string;
  id?: string;
  /** Line of the block in the source text, when known. */
  line?: number;
  ok: boolean;
  /** `Cannot <action> "<value>": <state>` when `ok` is false. */
  error?: string;
  hint?: string;
  /** For an id that matched nothing or too much: the nearest headings or first lines. */
  candidates?: string[];
  /** Unified diff of this command's change ("" when nothing changed). */
  diff: string;
  warnings: string[];
}

/** What `applyUpdates` returns. */
export interface ApplyReport {
  results: UpdateResult[];
  /** Blocks that could not be parsed (only when the input was text). */
  parseErrors: ParseError[];
}
