import { randomHex } from "../platform/digest.ts";

/** A short id that sorts by start time and is unique across processes: `mhx8k2p1-a3f9c1`. */
export function newRunId(now = Date.now()): string {
  return `${now.toString(36)}-${randomHex(3)}`;
}
