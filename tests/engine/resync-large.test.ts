import { expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { createEngine } from "../../src/engine/engine.ts";
import { CONTENT_SNAPSHOT_LIMIT } from "../../src/engine/resync.ts";
import { tempDir, writeFiles } from "../helpers/tmp.ts";

const N = CONTENT_SNAPSHOT_LIMIT + 200;

for (const git of [true, false]) {
  test(`a batch past the content-snapshot limit still reports a rewrite (${git ? "in git" : "outside git"})`, async () => {
    const root = tempDir("cpilot-large-", { git });
    const files: Record<string, string> = {};
    for (let i = 0; i < N; i++) files[`f${i}.txt`] = `v${i}\n`;
    writeFiles(root, files);
    if (git) {
      execFileSync("git", ["add", "-A"], { cwd: root });
      execFileSync("git", ["commit", "-qm", "x"], { cwd: root });
    }
    const engine = createEngine({
      root,
      config: {
        callbacks: [{ name: "fmt", pattern: "*.txt", run: "echo rewritten > f7.txt", timeout: 10 }],
      },
    });
    const outcome = await engine.run({
      root,
      files: Object.keys(files).map((path) => ({ path, kind: "modified" as const })),
      origin: { surface: "api" },
    });
    expect(outcome.resyncs.map((r) => r.path)).toEqual(["f7.txt"]);
    expect(outcome.resyncs[0]?.newText).toBe("rewritten\n");
  });
}
