import { writeSync } from "node:fs";

const enabled = process.env.CPILOT_TRACE === "1";

/**
 * With CPILOT_TRACE=1, print "[trace] <ms since start> <label>" to stderr: where a slow
 * hook call or check spends its time. Costs one boolean test otherwise.
 */
export function mark(label: string): void {
  if (enabled) writeSync(2, `[trace] ${performance.now().toFixed(2)} ${label}\n`);
}
