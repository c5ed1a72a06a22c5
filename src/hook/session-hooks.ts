/**
 * `cpilot run` gives an agent session hooks (Claude Code's `--settings`) while the hooks
 * installed in the project also run: the installed one, called inside such a run, steps
 * aside so the model does not read every result twice.
 */

/** The agent whose session hooks answer. */
export const SESSION_HOOKS_ENV = "CPILOT_SESSION_HOOKS";

export const SESSION_FLAG = "--session";
