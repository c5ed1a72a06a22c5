/** The shapes of the context-update flow: agent text ─► `UpdateCommand`s ─► `UpdateResult`s. */

export type Action = "add" | "update" | "remove" | "complete";

/** In the order the docs list them. */
export const ACTIONS: readonly Action[] = ["add", "update", "remove", "complete"];

/** One `<context-update>` block, as written; `validateUpdate` says whether it can apply. */
export interface UpdateCommand {
  /** Relative to the context directory. */
  file: string;
  /** Kept as written so a typo can be reported. */
  action: string;
  section?: string;
  id?: string;
  /** Lines joined by "\n", without leading or trailing blank lines. */
  content: string;
  /** 1-based, of the opening tag. */
  line?: number;
  /** Anything but file, action, section and id (always a problem). */
  unknownAttributes?: string[];
}

/** The well-formed blocks around it still apply. */
export interface ParseError {
  /** 1-based. */
  line: number;
  message: string;
  hint?: string;
}

export interface ParseResult {
  updates: UpdateCommand[];
  errors: ParseError[];
}

export interface ApplyOptions {
  /** Absolute; every file stays inside it. */
  contextDir: string;
  /** When the directory was named relative to it, it must really be inside (a `.context` symlinked to ~/.claude is refused). */
  projectRoot?: string;
  dryRun?: boolean;
  /** One backup, overwritten. */
  backup?: boolean;
  /** Relative to `contextDir`. Default `["*.md"]`. */
  allowedFiles?: readonly string[];
  moveCompleted?: boolean;
  /** For `moveCompleted` dates. Default: now. */
  now?: Date;
}

export interface UpdateResult {
  file: string;
  action: string;
  section?: string;
  id?: string;
  line?: number;
  ok: boolean;
  /** When `ok` is false. */
  error?: string;
  hint?: string;
  /** For an id that matched nothing or too much: the nearest headings or first lines. */
  candidates?: string[];
  /** "" when nothing changed. */
  diff: string;
  warnings: string[];
}

export interface ApplyReport {
  results: UpdateResult[];
  /** Only when the input was text. */
  parseErrors: ParseError[];
}
