/**
 * The pre-write hook command for agents that refuse a tool call when its hook exits 2 and take a
 * failed hook as "go ahead": a clone whose shared hook settings name a cpilot that is missing (or
 * crashes) would let the write pass unchecked. A working cpilot's exit code and stdout pass
 * through.
 */

/** No `'`: it sits in single quotes. */
export const MISSING_LINE =
  "cpilot is not installed here: install it (npm install --save-dev cpilot, or its binary on PATH), then run cpilot doctor; until then cpilot refuses this write";

export const FAILS_CLOSED =
  "  the write gate fails closed: where cpilot is missing or fails, the pre-write hook exits 2 and the edit is refused";

const WRAPPED =
  /^command -v (.+?) >\/dev\/null 2>&1 \|\| \{ echo '[^']*' >&2; exit 2; \}; (.+?); s=\$\?; /;

/** A missing or crashing cpilot exits 2 with one line on stderr (for `npx …`, npx is checked). */
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

/** The command itself when not wrapped. */
export function unwrapFailClosed(command: string): string {
  return WRAPPED.exec(command)?.[2] ?? command;
}
