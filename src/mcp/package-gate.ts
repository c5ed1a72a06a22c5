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
 */
export async function packageGate(
  root: string,
  write: PendingWrite,
  options: { readonly log: boolean; readonly stateDirs: string[] },
): Promise<GateDecision | null> {
  if (write.path.includes("\0")) return null;
  const target = resolve(root, write.path);
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
  if (typeof nested.config !== "string")
    return evaluateWrite(inPackage, {
      ...settings,
      root: nested.config.root,
      config: nested.config.source.gate ?? {},
    });
  const builtIn = await evaluateWrite(inPackage, {
    ...settings,
    root: join(root, nested.folder),
    config: {},
  });
  return builtIn.decision === "deny"
    ? builtIn
    : refusedUnloaded(builtIn, write.path, nested.config);
}
