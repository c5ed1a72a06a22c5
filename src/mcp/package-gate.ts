import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { evaluateWrite } from "../gate/index.ts";
import { refusedUnloaded } from "../hook/edit-gate.ts";
import { nestedBatches } from "../hook/edits.ts";
import type { GateDecision, PendingWrite } from "../model/gate-types.ts";

/**
 * A write into a package with its own tracked config is held to that config's gate as
 * well, as the hooks hold an agent's edit there: the nearest config decides what may be
 * written in its folder. Null when the file lies in no such package. A package config that
 * does not load refuses what its built-in protections allow, as the project's own does.
 * A package inside a package is held to each config on the way down.
 */
export async function packageGate(
  root: string,
  write: PendingWrite,
  options: { readonly log: boolean; readonly stateDirs: string[] },
): Promise<GateDecision | null> {
  if (write.path.includes("\0")) return null;
  return gateBelow(root, resolve(root, write.path), write, options);
}

/** The decision of the outermost package below `root` holding `target`, and of those inside it. */
async function gateBelow(
  root: string,
  target: string,
  write: PendingWrite,
  options: { readonly log: boolean; readonly stateDirs: string[] },
): Promise<GateDecision | null> {
  const rel = relative(root, target);
  if (rel === "" || rel.startsWith("..") || isAbsolute(rel)) return null;
  const batch = {
    root,
    files: [{ path: rel.split(sep).join("/"), kind: "modified" as const }],
    origin: { surface: "mcp" as const },
  };
  const [nested] = await nestedBatches(batch, undefined);
  if (nested === undefined) return null;
  // the package's folder is its root: the path is given whole, never relative to another
  const inPackage = { ...write, path: target };
  const settings = { tty: false as const, log: options.log, stateDirs: options.stateDirs };
  if (typeof nested.config === "string") {
    const builtIn = await evaluateWrite(inPackage, {
      ...settings,
      root: join(root, nested.folder),
      config: {},
    });
    return builtIn.decision === "deny"
      ? builtIn
      : refusedUnloaded(builtIn, write.path, nested.config);
  }
  const decision = await evaluateWrite(inPackage, {
    ...settings,
    root: nested.config.root,
    config: nested.config.source.gate ?? {},
  });
  if (decision.decision === "deny") return decision;
  return heldBy(decision, await gateBelow(nested.config.root, target, write, options));
}

/**
 * What an outer config allowed, held to an inner one's decision: its refusal wins; else
 * the outer decision stands, unless only the inner one rewrote the content.
 */
export function heldBy(outer: GateDecision, inner: GateDecision | null): GateDecision {
  if (inner === null) return outer;
  if (inner.decision === "deny") return inner;
  return outer.content === undefined && inner.content !== undefined ? inner : outer;
}
