import { randomBytes } from "node:crypto";

/** A short id that sorts by start time and is unique across processes: `mhx8k2p1-a3f9c1`. */
export function newRunId(now = Date.now()): string {
  return `${now.toString(36)}-${randomBytes(3).toString("hex")}`;
}
