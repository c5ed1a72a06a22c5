/**
 * The apply_patch tool of the real Codex CLI 0.169 (no hooks, model scripted on 127.0.0.1)
 * reads a patch as its binary's `--codex-run-as-apply-patch` does, which the fast
 * differential test (tests/agents/kit/patch/codex-differential.test.ts) compares cpilot's
 * reading with: each corpus shape goes through the tool, the tree reset between calls, and
 * cpilot's reading must name every file Codex changed, and refuse what Codex refused.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { readCodexPatch } from "../../../src/agents/kit/patch/codex-reading.ts";
import { patchPath } from "../../../src/agents/kit/patch/patch-files.ts";
import { afterLastTurn, startFakeOpenAI } from "../../support/fake-openai.ts";
import { CORPUS } from "../kit/patch/_shapes.ts";
import { changed, patchTree, physical, resetTree, snapshot } from "../kit/patch/_tree.ts";
import { codexCli } from "./_codex-cli.ts";

const tree = patchTree();
afterAll(() => rmSync(tree.top, { recursive: true, force: true }));

describe("real Codex CLI: its apply_patch tool reads a patch as cpilot does", () => {
  test("every corpus shape through the tool", async () => {
    const cases = Object.values(CORPUS).map((t) => t.replaceAll("/ABS/", `${tree.outside}/`));
    const seen: string[][] = [];
    let before = snapshot(tree.top);
    const onTurn = (turn: number) => {
      if (turn === 0 || turn - 1 !== seen.length) return;
      seen.push(changed(before, snapshot(tree.top)));
      resetTree(tree);
      before = snapshot(tree.top);
    };
    const script = [
      ...cases.map((input) => [{ customTool: "apply_patch", input }]),
      [{ text: "done" }],
    ];
    const api = await startFakeOpenAI(script, onTurn);
    const home = codexCli.home(api.url);
    try {
      const run = await codexCli.run({ cwd: tree.root, prompt: "apply", home, apiUrl: api.url });
      expect(run.code).toBe(0);
      expect(seen.length).toBe(cases.length);
      const turns = api.turns();
      const failures: string[] = [];
      cases.forEach((patch, i) => {
        const touched = seen[i] as string[];
        const said = afterLastTurn(turns[i + 1] as never);
        const reading = readCodexPatch(patch);
        if (!reading.ok) {
          if (touched.length > 0) failures.push(`${JSON.stringify(patch)}: Codex wrote ${touched}`);
          if (!/invalid patch|invalid hunk|last line|first line/i.test(said))
            failures.push(`${JSON.stringify(patch)}: cpilot refused it, Codex said ${said}`);
          return;
        }
        const named = new Set(
          reading.files
            .flatMap((f) => [f.path, ...(f.moveTo === undefined ? [] : [f.moveTo])])
            .map((p) => physical(patchPath(tree.root, p))),
        );
        const unnamed = touched.filter((p) => !named.has(p));
        if (unnamed.length > 0)
          failures.push(
            `${JSON.stringify(patch)}: Codex wrote ${unnamed}, cpilot read ${JSON.stringify(reading.files)}`,
          );
        if (/invalid patch|invalid hunk/i.test(said))
          failures.push(`${JSON.stringify(patch)}: Codex refused it: ${said}`);
      });
      expect(failures).toEqual([]);
    } finally {
      await api.close();
      rmSync(home, { recursive: true, force: true });
    }
  }, 300_000);
});
