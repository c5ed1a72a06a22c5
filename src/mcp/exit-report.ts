import { processStop } from "../platform/process-stop.ts";
import { writeErr } from "../platform/stdio.ts";

/** process.exit() by code running in the server (a config's timer, a function callback) still ends it, but says so on stderr. Returns the undo. */
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
