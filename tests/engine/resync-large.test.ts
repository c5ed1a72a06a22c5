import { expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { utimesSync } from "node:fs";
import { join } from "node:path";
import { createEngine } from "../../src/engine/engine.ts";
import { CONTENT_SNAPSHOT_LIMIT } from "../../src/engine/resync.ts";
import { tempDir, writeFiles } from "../helpers/tmp.ts";

const N = CONTENT_SNAPSHOT_LIMIT + 200;

for (const git of [true, false]) {
  test(`a batch past the content-snapshot limit still reports every rewrite (${git ? "in git, tracked or not" : "outside git"})`, async () => {
    const root = tempDir("cpilot-large-", { git });
    const files: Record<string, string> = {};
    for (let i = 0; i < N; i++) files[`f${i}.txt`] = `v${i}\n`;
    writeFiles(root, files);
    if (git) {
      execFileSync("git", ["add", "-A"], { cwd: root });
      execFileSync("git", ["commit", "-qm", "x"], { cwd: root });
    }
    writeFiles(root, { "untracked.txt": "u\n" });
    files["untracked.txt"] = "u\n";
    // as a checkout's files are: written well before the check
    const past = new Date(Date.now() - 60_000);
    for (const name of Object.keys(files)) utimesSync(join(root, name), past, past);
    const engine = createEngine({
      root,
      config: {
        callbacks: [
          {
            name: "fmt",
            pattern: "*.txt",
            run: "echo rewritten > f7.txt; echo again > untracked.txt; rm f9.txt f11.txt",
            timeout: 10,
          },
        ],
      },
    });
    const outcome = await engine.run({
      root,
      // f11.txt was already gone: the batch says so, and its absence is no news
      files: Object.keys(files).map((path) => ({
        path,
        kind: path === "f11.txt" ? ("deleted" as const) : ("modified" as const),
      })),
      origin: { surface: "api" },
    });
    expect(outcome.resyncs.map((r) => r.path)).toEqual(["f7.txt", "f9.txt", "untracked.txt"]);
    expect(outcome.resyncs.map((r) => r.newText)).toEqual(["rewritten\n", null, "again\n"]);
    expect(outcome.resyncs[0]?.diff).toContain("re-read it");
    expect(outcome.resyncs[1]?.diff).toContain("+++ /dev/null");
  });
}
