/**
 * The one error class callers catch: a problem the user can fix, with a hint.
 * Messages follow `Cannot <action> "<value>": <state>`; the hint says the fix.
 */
export class CpilotError extends Error {
  override readonly name = "CpilotError";
  readonly hint: string | undefined;
  /** Process exit code when this reaches main.ts: 2 for usage and config errors. */
  readonly exitCode: number;

  constructor(
    message: string,
    options: { hint?: string; exitCode?: number; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.hint = options.hint;
    this.exitCode = options.exitCode ?? 2;
  }
}

/** `--help` on a subcommand: not an error, main.ts prints the usage on stdout and exits 0. */
export class HelpRequest extends Error {
  override readonly name = "HelpRequest";
  constructor(readonly usage: string) {
    super(usage);
  }
}
