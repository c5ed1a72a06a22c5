import { writeSync } from "node:fs";

const setting = process.env.CPILOT_TRACE;
const enabled = setting === "1" || setting === "cpu";
/** CPU time too: on a busy machine wall times say little, CPU time is still this call's own. */
const withCpu = setting === "cpu";

/**
 * With CPILOT_TRACE=1, print "[trace] <ms since start> <label>" to stderr: where a slow
 * hook call or check spends its time; CPILOT_TRACE=cpu adds "cpu <ms>" (user + system time
 * of this process so far) before the label. Costs one boolean test otherwise.
 */
export function mark(label: string): void {
  if (!enabled) return;
  const wall = performance.now().toFixed(2);
  if (!withCpu) {
    writeSync(2, `[trace] ${wall} ${label}\n`);
    return;
  }
  const { user, system } = process.cpuUsage();
  writeSync(2, `[trace] ${wall} cpu ${((user + system) / 1000).toFixed(2)} ${label}\n`);
}
