import { detectGo } from "./detect-go.ts";
import { detectMake } from "./detect-make.ts";
import { detectNode } from "./detect-node.ts";
import { detectPython } from "./detect-python.ts";
import { detectRust } from "./detect-rust.ts";
import { ProjectFiles } from "./project-files.ts";
import type { Detection } from "./spec.ts";

/** Everything init proposes for the project at `root`, from its scripts and tool configs. */
export function detectProject(root: string): Detection {
  const p = new ProjectFiles(root);
  const rust = detectRust(p);
  const node = detectNode(p);
  const proposals = [...node.proposals, ...rust.proposals, ...detectPython(p), ...detectGo(p)];
  const notes = [...node.notes, ...rust.notes];
  const make = detectMake(p, proposals.length > 0, ["*", "!*.md"]);
  proposals.push(...make);
  // Two callbacks may not share a name: the second of a kind gets a suffix.
  const names = new Set<string>();
  for (const { callback } of proposals) {
    let name = callback.name;
    for (let i = 2; names.has(name); i++) name = `${callback.name}-${i}`;
    callback.name = name;
    names.add(name);
  }
  return { proposals, notes, ...(rust.proposals.length > 0 ? { resyncTree: true } : {}) };
}

/** True when the project is written in TypeScript (its config can be TypeScript too). */
export function isTypeScriptProject(root: string): boolean {
  const p = new ProjectFiles(root);
  return (
    p.has("tsconfig.json") ||
    p.hasDep("typescript") ||
    p.first("deno.json", "deno.jsonc") !== undefined
  );
}
