import { restoreJitPolicy, setJitPolicy } from "../platform/jit.ts";

/** How many times the JIT's thresholds are raised: code a one-shot process runs once is cheaper to interpret. */
const SCALE = 500;
/** A one-shot hook call has three per callback; a warm server tiers up normally after these. */
const FIRST_STEPS = 16;

let steps = 0;
/** Only the outermost step sets the policy and sets it back. */
let depth = 0;

/**
 * Run `step` with Bun's JIT slow to compile: a dense output made it compile the parser and the
 * baseline comparison for a process that then exits. Only a process's first FIRST_STEPS steps;
 * elsewhere as is. The policy is set back to the process's own (platform/jit.ts).
 */
export function withColdJit<T>(step: () => T): T {
  if (depth > 0 || steps >= FIRST_STEPS || !setJitPolicy(SCALE)) return step();
  steps++;
  depth++;
  try {
    return step();
  } finally {
    depth--;
    restoreJitPolicy();
  }
}
