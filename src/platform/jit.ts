import { bun } from "./bun.ts";

/** Set by scripts/compile.ts to the binary's --compile-jit-policy; absent when run from source. */
declare const CPILOT_JIT_POLICY: number | undefined;

/**
 * The JIT policy this process runs with when nothing has raised it for a while: dist/cpilot
 * starts with JavaScriptCore's tier-up thresholds scaled up (scripts/compile.ts), so a short
 * call spends no CPU compiling code it runs a few hundred times; a process that stays up
 * sets it back to 1 (useLongLivedJit).
 */
let basePolicy = typeof CPILOT_JIT_POLICY === "number" ? CPILOT_JIT_POLICY : 1;

/** Set the policy now; false where the runtime has no such setting (Deno, older Bun). */
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

/** Put the policy back to this process's base, after a step that raised it. */
export function restoreJitPolicy(): void {
  setJitPolicy(basePolicy);
}

/**
 * A process that stays up (an MCP server, `cpilot run`) runs the same code
 * for minutes: it calls this first, to compile it as usual. Nothing on other runtimes.
 */
export function useLongLivedJit(): void {
  basePolicy = 1;
  setJitPolicy(1);
}
