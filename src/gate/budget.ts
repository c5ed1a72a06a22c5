import { type GateConfig, resolveGateConfig } from "../model/gate-schema.ts";
import { listPlugins } from "./plugins.ts";

/** Every plugin up to its timeout; a hook that supervises the gate waits this long and a little more. */
export function gateBudgetMs(root: string, gate: GateConfig | undefined): number {
  try {
    return listPlugins(root, resolveGateConfig(gate)).reduce((sum, p) => sum + p.timeoutMs, 0);
  } catch {
    return 0; // a gate section that does not validate denies at once
  }
}
