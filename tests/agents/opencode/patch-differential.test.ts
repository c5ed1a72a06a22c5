/**
 * cpilot reads a patch as OpenCode does: the real OpenCode 1.18.33 (a model it gives its
 * apply_patch tool, scripted on 127.0.0.1) applies each patch shape in one session, the tree
 * reset between calls, and cpilot's reading must name every file OpenCode changed (with the
 * content of a new file), accept exactly the patches OpenCode's parser accepts, and name
 * nothing OpenCode did not write when it succeeded.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import fc from "fast-check";
import { readOpencodePatch } from "../../../src/agents/kit/patch/opencode-reading.ts";
import { patchPath } from "../../../src/agents/kit/patch/patch-files.ts";
import { afterLastTurn, startFakeOpenAI } from "../../support/fake-openai.ts";
import { CORPUS, patchShape } from "../kit/patch/_shapes.ts";
import { changed, patchTree, physical, resetTree, snapshot } from "../kit/patch/_tree.ts";
import { opencodeLauncher } from "./_opencode-cli.ts";

// `opencode run` ends the session at a refused permission: let it write anywhere in the temp tree
const cli = opencodeLauncher("gpt-5", {
  permission: { edit: "allow", external_directory: "allow" },
});
const tree = patchTree();
afterAll(() => rmSync(tree.top, { recursive: true, force: true }));

/** OpenCode's own parser said no (as against a write that failed later). */
const PARSE_REFUSAL = /Invalid patch format|no hunks found|empty patch/;

describe("cpilot reads a patch as the real OpenCode applies it", () => {
  test("the corpus and generated shapes, one apply_patch call each", async () => {
    const cases = [
      ...Object.values(CORPUS),
      ...fc.sample(patchShape, { numRuns: 40, seed: 31 }),
    ].map((t) => t.replaceAll("/ABS/", `${tree.outside}/`));
    const seen: { touched: string[]; after: Map<string, string> }[] = [];
    let before = snapshot(tree.top);
    const onTurn = (turn: number) => {
      if (turn === 0 || turn - 1 !== seen.length) return;
      const after = snapshot(tree.top);
      seen.push({ touched: changed(before, after), after });
      resetTree(tree);
      before = snapshot(tree.top);
    };
    const script = [
      ...cases.map((patchText) => [{ tool: "apply_patch", args: { patchText } }]),
      [{ text: "done" }],
    ];
    const api = await startFakeOpenAI(script, onTurn);
    const home = cli.home(api.url);
    try {
      const run = await cli.run({
        cwd: tree.root,
        prompt: "apply the patches",
        home,
        apiUrl: api.url,
        timeoutMs: 1_500_000,
      });
      expect(run.code).toBe(0);
      expect(api.escapes()).toEqual([]);
      const turns = api.turns();
      expect(seen.length).toBe(cases.length);
      const failures: string[] = [];
      cases.forEach((patch, i) => {
        const said = afterLastTurn(turns[i + 1] as never);
        const failure = differ(patch, seen[i] as (typeof seen)[number], said);
        if (failure !== null) failures.push(`${JSON.stringify(patch)}\n  ${failure}`);
      });
      expect(failures).toEqual([]);
    } finally {
      await api.close();
      rmSync(home, { recursive: true, force: true });
    }
  }, 1_600_000);
});

function differ(
  patch: string,
  { touched, after }: { touched: readonly string[]; after: Map<string, string> },
  said: string,
): string | null {
  const reading = readOpencodePatch(patch);
  const refused = PARSE_REFUSAL.test(said);
  if (!reading.ok) {
    if (touched.length > 0) return `cpilot refused, OpenCode wrote ${touched.join(", ")}`;
    return refused ? null : `cpilot refused (${reading.error}), OpenCode did not: ${said}`;
  }
  if (refused) return `OpenCode refused, cpilot read ${JSON.stringify(reading.files)}: ${said}`;
  const named = new Set<string>();
  for (const f of reading.files) {
    named.add(physical(patchPath(tree.root, f.path)));
    if (f.moveTo !== undefined) named.add(physical(patchPath(tree.root, f.moveTo)));
  }
  const unnamed = touched.filter((p) => !named.has(p));
  if (unnamed.length > 0)
    return `OpenCode wrote ${unnamed.join(", ")}, cpilot read ${JSON.stringify(reading.files)}`;
  if (said.includes("Success. Updated the following files"))
    for (const f of reading.files) {
      const at = physical(patchPath(tree.root, f.moveTo ?? f.path));
      const wrote = after.get(at);
      if (f.op === "delete" && wrote !== undefined) return `OpenCode kept ${at}`;
      const expected = `file:${Buffer.from(f.content ?? "", "utf8").toString("latin1")}`;
      if (f.op === "add" && wrote !== expected)
        return `OpenCode wrote ${JSON.stringify(wrote)} to ${at}, cpilot read ${JSON.stringify(f.content)}`;
    }
  return null;
}
