/**
 * The pre-write hook command for agents that refuse a tool call when its hook exits 2 and
 * run hook commands through sh or bash. A teammate's clone whose shared hook settings name
 * a cpilot that is not there (not on PATH, node_modules not installed) would otherwise get
 * a failed hook, which these agents take as "go ahead": the write would pass unchecked.
 * A cpilot that starts and crashes (a code other than 0 or 2, a signal) is refused the same
 * way. A working cpilot's exit code and stdout pass through unchanged.
 */

/** The line the model reads when cpilot is not there; no `'` (it sits in single quotes). */
export const MISSING_LINE =
  "cpilot is not installed here: install it (npm install --save-dev cpilot, or its binary on PATH), then run cpilot doctor; until then cpilot refuses this write";

/** What `install` says of a gate wired this way. */
export const FAILS_CLOSED =
  "  the write gate fails closed: where cpilot is missing or fails, the pre-write hook exits 2 and the edit is refused";

const WRAPPED =
  /^command -v (.+?) >\/dev\/null 2>&1 \|\| \{ echo '[^']*' >&2; exit 2; \}; (.+?); s=\$\?; /;

/**
 * `command` (`<program> hook <agent>`) run so that a missing or crashing cpilot exits 2 with
 * one line on stderr. `npx …` is checked for npx; npx's own failure is the crash case.
 *
 * @example
 * failClosedCommand("cpilot hook codex")
 * // command -v cpilot >/dev/null 2>&1 || { echo '…' >&2; exit 2; }; cpilot hook codex; s=$?; …
 */
export function failClosedCommand(command: string): string {
  const program = command.slice(0, command.lastIndexOf(" hook "));
  const probe = program.startsWith("npx ") ? "npx" : program;
  const failed =
    "cpilot failed (exit $s), so this write is refused to be safe: ask the user to run cpilot doctor";
  return [
    `command -v ${probe} >/dev/null 2>&1 || { echo '${MISSING_LINE}' >&2; exit 2; }`,
    command,
    "s=$?",
    `[ $s -eq 0 ] || [ $s -eq 2 ] || { echo "${failed}" >&2; exit 2; }`,
    "exit $s",
  ].join("; ");
}

/** The cpilot command inside a {@link failClosedCommand} (the command itself when not one). */
export function unwrapFailClosed(command: string): string {
  return WRAPPED.exec(command)?.[2] ?? command;
}
