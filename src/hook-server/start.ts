// Start a hook server in the background after a call found none, at most one at a time.
import { closeSync, openSync, statSync, writeFileSync, writeSync } from "node:fs";
import { startProcess } from "../platform/start-process.ts";

/** A start newer than this is still under way: do not start another. */
const STARTING_MS = 10_000;

/** The marker a starting server holds until it listens (it removes it then). */
export function startingMarker(socket: string): string {
  return `${socket}.starting`;
}

/**
 * Start `cpilot hook --serve SOCKET` detached (its own session, no stdio, the caller does
 * not wait), unless another call started one moments ago. Never throws: without a server,
 * calls are answered in their own processes as before.
 */
export function startHookServer(socket: string, execPath = process.execPath): void {
  const marker = startingMarker(socket);
  try {
    const fd = openSync(marker, "wx", 0o600);
    writeSync(fd, String(Date.now()));
    closeSync(fd);
  } catch {
    // Someone is starting one, unless their marker is stale (the start died).
    try {
      if (Date.now() - statSync(marker).mtimeMs < STARTING_MS) return;
      writeFileSync(marker, String(Date.now()), { mode: 0o600 });
    } catch {
      return;
    }
  }
  startProcess(execPath, ["hook", "--serve", socket], { cwd: "/", detached: true }).unref();
}
