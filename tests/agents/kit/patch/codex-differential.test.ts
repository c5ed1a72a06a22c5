/**
 * cpilot reads a patch as Codex does: the real Codex binary applies each patch shape in a
 * temp folder, and cpilot's reading must name every file Codex changed (with the content
 * it wrote for a new file), accept exactly the patches Codex accepts, and name nothing
 * Codex did not write when it succeeded.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, rmSync } from "node:fs";
import fc from "fast-check";
import { readCodexPatch } from "../../../../src/agents/kit/patch/codex-reading.ts";
import { patchPath } from "../../../../src/agents/kit/patch/patch-files.ts";
import { codexApply } from "./_codex-apply.ts";
import { CORPUS, patchShape } from "./_shapes.ts";
import { changed, patchTree, physical, snapshot } from "./_tree.ts";

/** Apply `template` with Codex and compare with cpilot's reading; returns a failure or null. */
function differ(template: string): string | null {
  const tree = patchTree();
  try {
    const patch = template.replaceAll("/ABS/", `${tree.outside}/`);
    const reading = readCodexPatch(patch);
    const before = snapshot(tree.top);
    const run = codexApply(patch, tree.root, tree.home);
    const touched = changed(before, snapshot(tree.top));
    const codexRefused = run.stderr.includes("Invalid patch");
    if (!reading.ok) {
      if (touched.length > 0) return `cpilot refused, Codex wrote ${touched.join(", ")}`;
      if (!codexRefused)
        return `cpilot refused (${reading.error}), Codex did not: ${run.stderr}${run.stdout}`;
      return null;
    }
    if (codexRefused)
      return `Codex refused, cpilot read ${JSON.stringify(reading.files)}: ${run.stderr}`;
    const named = new Set<string>();
    for (const f of reading.files) {
      named.add(physical(patchPath(tree.root, f.path)));
      if (f.moveTo !== undefined) named.add(physical(patchPath(tree.root, f.moveTo)));
    }
    const unnamed = touched.filter((p) => !named.has(p));
    if (unnamed.length > 0)
      return `Codex wrote ${unnamed.join(", ")}, cpilot read ${JSON.stringify(reading.files)}`;
    if (run.code === 0)
      for (const f of reading.files) {
        const at = physical(patchPath(tree.root, f.moveTo ?? f.path));
        if (f.op === "delete" && existsSync(at)) return `Codex kept ${at}`;
        if (f.op === "add" && readFileSync(at, "utf8") !== f.content)
          return `Codex wrote ${JSON.stringify(readFileSync(at, "utf8"))} to ${at}, cpilot read ${JSON.stringify(f.content)}`;
      }
    return null;
  } finally {
    rmSync(tree.top, { recursive: true, force: true });
  }
}

describe("cpilot reads a patch as the real Codex binary applies it", () => {
  for (const [name, patch] of Object.entries(CORPUS))
    test(name, () => {
      expect(differ(patch)).toBeNull();
    });

  test("generated shapes", () => {
    fc.assert(
      fc.property(patchShape, (patch) => {
        const failure = differ(patch);
        if (failure !== null) throw new Error(`${JSON.stringify(patch)}\n${failure}`);
      }),
      {
        numRuns: Number(process.env.PATCH_RUNS ?? 250),
        seed: Number(process.env.PATCH_SEED ?? 31),
      },
    );
  }, 300_000);
});
