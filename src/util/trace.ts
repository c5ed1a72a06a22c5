import { writeSync } from "node:fs";

const setting = process.env.CPILOT_TRACE;
const enabled = setting === "1" || setting === "cpu";
/** On a busy machine wall times say little; CPU time is still this call's own. */
const withCpu = setting === "cpu";

/** With CPILOT_TRACE=1, "[trace] <ms> <label>" on stderr (CPILOT_TRACE=cpu adds CPU time); one boolean test otherwise. */
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
