/** The one error class callers catch: `Cannot <action> "<value>": <state>`, and a hint with the fix. */
export class CpilotError extends Error {
  override readonly name = "CpilotError";
  readonly hint: string | undefined;
  /** 2 for usage and config errors. */
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

/** `--help` on a subcommand: usage on stdout, exit 0. */
export class HelpRequest extends Error {
  override readonly name = "HelpRequest";
  constructor(readonly usage: string) {
    super(usage);
  }
}
