import { randomHex } from "../platform/digest.ts";

/** A short id that sorts by start time and is unique across processes: `mhx8k2p1-a3f9c1`. */
export function newRunId(now = Date.now()): string {
  return `${now.toString(36)}-${randomHex(3)}`;
}

/** Ids are read back from files anyone may write and become parts of paths: no `/`, no `.`, nothing odd. */
export function isRunId(id: unknown): id is string {
  return typeof id === "string" && /^[0-9A-Za-z_-]{1,64}$/.test(id);
}
