import { bun } from "./bun.ts";

declare const CPILOT_JIT_POLICY: number | undefined;

/** The binary starts with JavaScriptCore's tier-up thresholds scaled up, so a short call compiles nothing; a long-lived process sets 1. */
let basePolicy = typeof CPILOT_JIT_POLICY === "number" ? CPILOT_JIT_POLICY : 1;

/** False where the runtime has no such setting (Deno, older Bun). */
export function setJitPolicy(scale: number): boolean {
  const set = bun?.unsafe?.setJITPolicy;
  if (typeof set !== "function") return false;
  try {
    set(scale);
    return true;
  } catch {
    return false;
  }
}

export function restoreJitPolicy(): void {
  setJitPolicy(basePolicy);
}

/** For a process that stays up (MCP, `cpilot run`): compile code as usual. */
export function useLongLivedJit(): void {
  basePolicy = 1;
  setJitPolicy(1);
}
