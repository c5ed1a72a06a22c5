import { bun } from "./bun.ts";

/**
 * dist/cpilot starts with JavaScriptCore's tier-up thresholds scaled up (scripts/compile.ts):
 * a short call spends no CPU compiling code it runs a few hundred times. A process that
 * stays up (an MCP server, `cpilot run`, the hook server) runs the same code for minutes
 * and calls this first, to compile it as usual. Nothing on other runtimes.
 */
export function useLongLivedJit(): void {
  try {
    bun?.unsafe?.setJITPolicy?.(1);
  } catch {
    // an older runtime: the default policy already
  }
}
