import { processStop } from "../platform/process-stop.ts";
import { writeErr } from "../platform/stdio.ts";

/**
 * While the server serves, process.exit() called by code running in it (a timer the
 * project's config set, a function callback) still ends it, but never silently: stderr
 * (the client's log) says so. Returns the undo.
 */
export function reportExits(): () => void {
  const exit = process.exit;
  process.exit = ((code?: number) => {
    // A second Ctrl-C (main.ts) exits on purpose.
    if (!processStop.aborted) {
      writeErr(
        `cpilot mcp: the server stops: code running in it called process.exit(${code ?? ""}) (the project's config, or one of its function callbacks?)\n`,
      );
    }
    return exit(code);
  }) as typeof process.exit;
  return () => {
    process.exit = exit;
  };
}
