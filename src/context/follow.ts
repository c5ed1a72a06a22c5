import { closeSync, openSync, readSync, statSync } from "node:fs";
import { scanUpdates } from "./parse.ts";
import type { ParseError, UpdateCommand } from "./types.ts";

export interface FollowOptions {
  /** In order, each block exactly once. */
  onBlocks: (updates: UpdateCommand[], errors: ParseError[]) => void;
  /** Stops after reading what is there. */
  signal?: AbortSignal;
  /** Default 150 ms. */
  pollMs?: number;
  /** Default: never. */
  idleExitMs?: number;
}

export type FollowEnd = "aborted" | "removed" | "idle";

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}

function readFrom(path: string, offset: number, size: number): Uint8Array {
  const buffer = Buffer.alloc(size - offset);
  const fd = openSync(path, "r");
  try {
    let read = 0;
    while (read < buffer.length) {
      const n = readSync(fd, buffer, read, buffer.length - read, offset + read);
      if (n === 0) break;
      read += n;
    }
    return buffer.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}

const READ_SLICE = 8 * 1024 * 1024;

/** Characters; a longer unclosed block is reported as never closed. */
const MAX_OPEN_BLOCK = 4 * 1024 * 1024;

/**
 * Tails a growing file (an agent's log) and hands over each block once it closes. A block
 * still open at the end is an error; a truncated file is read again, skipping blocks
 * already handed over.
 */
export async function followUpdates(path: string, options: FollowOptions): Promise<FollowEnd> {
  const seen = new Set<string>();
  let decoder = new TextDecoder();
  let offset = 0;
  let pending = "";
  let firstLine = 1;
  let lastGrowth = Date.now();
  const deliver = (final: boolean) => {
    const scan = scanUpdates(pending, { final, firstLine });
    const fresh = scan.updates.filter((update) => {
      const key = JSON.stringify(update);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    if (fresh.length > 0 || scan.errors.length > 0) options.onBlocks(fresh, scan.errors);
    for (
      let i = pending.indexOf("\n");
      i !== -1 && i < scan.consumed;
      i = pending.indexOf("\n", i + 1)
    ) {
      firstLine++;
    }
    pending = pending.slice(scan.consumed);
  };
  for (;;) {
    let size: number;
    try {
      size = statSync(path).size;
    } catch {
      deliver(true);
      return "removed";
    }
    if (size < offset) {
      decoder = new TextDecoder();
      offset = 0;
      pending = "";
      firstLine = 1;
    }
    if (size > offset) {
      // a slice at a time: a log that grew a lot is not read into memory at once
      const chunk = readFrom(path, offset, Math.min(size, offset + READ_SLICE));
      offset += chunk.length;
      pending += decoder.decode(chunk, { stream: true });
      lastGrowth = Date.now();
      deliver(false);
      // A block open this long is not going to close: report it, and do not hold the rest.
      if (pending.length > MAX_OPEN_BLOCK) deliver(true);
      if (offset < size) continue;
    }
    if (options.signal?.aborted) {
      deliver(true);
      return "aborted";
    }
    if (options.idleExitMs !== undefined && Date.now() - lastGrowth >= options.idleExitMs) {
      deliver(true);
      return "idle";
    }
    await sleep(options.pollMs ?? 150, options.signal);
  }
}
