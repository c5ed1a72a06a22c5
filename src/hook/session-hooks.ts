/**
 * `cpilot run -- <agent>` gives an agent that takes hooks for one session (Claude Code's
 * `--settings`) cpilot's own hooks, and the agent also runs the hooks installed in the
 * project: both would answer each call, and the model would read every result twice. The
 * run marks the agent's environment with the agent's name; the session's hooks carry
 * SESSION_FLAG; an installed hook called inside such a run steps aside.
 */

/** Set by `cpilot run` on the agent's environment: the agent whose session hooks answer. */
export const SESSION_HOOKS_ENV = "CPILOT_SESSION_HOOKS";

/** On the command line of a session's own hooks: `cpilot hook claude --session`. */
export const SESSION_FLAG = "--session";
