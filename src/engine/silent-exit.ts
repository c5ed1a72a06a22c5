/** The exit code a script uses to say "nothing to do here, stay silent". */
export const SILENT_EXIT_CODE = 7;
