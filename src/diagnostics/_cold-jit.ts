import { restoreJitPolicy, setJitPolicy } from "../platform/jit.ts";

/**
 * How many times the JIT's thresholds are raised for a process's first diagnostics steps.
 * Code a one-shot process runs once is cheaper to interpret than to compile, so the first
 * pass over a dense output is faster with the JIT held back; past a few hundred times it
 * gains nothing more (scripts/bench-diagnostics.ts).
 */
const SCALE = 500;
/**
 * Steps run so: a one-shot hook call has three per callback (parse, baseline, the agent's
 * view); a warm server tiers up normally after its first few runs.
 */
const FIRST_STEPS = 16;

let steps = 0;
/** Steps running now: only the outermost sets the policy and sets it back. */
let depth = 0;

/**
 * Run `step` with Bun's JIT slow to move code to its optimizing tiers: a dense output's
 * thousands of diagnostics made it compile the parser, the baseline comparison and the
 * agent's view (CPU time on its own threads, counted in the hook call's) for a process that
 * then exits. Only a process's first FIRST_STEPS steps; elsewhere (Deno, older Bun) as is.
 * The policy is set back to the process's own (platform/jit.ts): the binary's, or 1 in a
 * process that stays up.
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
