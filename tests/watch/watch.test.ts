/** The watcher with real file writes in a temp project. */
import { afterEach, describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { resolveConfig } from "../../src/config/resolve.ts";
import type { Outcome } from "../../src/model/outcome.ts";
import { startWatchSession, type WatchSession } from "../../src/watch/watch-session.ts";
import { tempDir, waitFor } from "../helpers/tmp.ts";

let dir = "";
let session: WatchSession | undefined;
afterEach(async () => {
  await session?.close();
  session = undefined;
  rmSync(dir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What most tests wait for: the quiet period only has to end, however long it is. */
const QUIET_MS = 300;

function start(
  callbacks: unknown[],
  mode?: "per-dir" | "recursive",
  files: Record<string, string> = {},
  quietMs = QUIET_MS,
) {
  dir = tempDir("cpilot-watch-", { git: true });
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  const outcomes: { outcome: Outcome; at: number }[] = [];
  const config = resolveConfig({ callbacks } as never, dir);
  session = startWatchSession({
    config,
    quietMs,
    ...(mode ? { mode } : {}),
    onBatch: (outcome) => outcomes.push({ outcome, at: Date.now() }),
  });
  return outcomes;
}

for (const mode of ["per-dir", "recursive"] as const) {
  describe(`watcher (${mode})`, () => {
    test("changes within the quiet period make one batch, after the tree is quiet", async () => {
      // The writes are 100 ms apart: a quiet period far longer keeps them one batch even when
      // a busy machine runs this process late.
      const quietMs = 3000;
      const outcomes = start(
        [{ name: "all", pattern: "**/*.ts", run: "true", timeout: 10 }],
        mode,
        { "src/.keep": "" },
        quietMs,
      );
      const t0 = Date.now();
      writeFileSync(join(dir, "a.ts"), "1");
      await sleep(100);
      writeFileSync(join(dir, "src", "b.ts"), "2");
      mkdirSync(join(dir, "src", "new"));
      writeFileSync(join(dir, "src", "new", "c.ts"), "3");
      expect(await waitFor(() => outcomes.length === 1, 30_000)).toBe(true);
      await sleep(600);
      expect(outcomes.length).toBe(1);
      const first = outcomes[0] as { outcome: Outcome; at: number };
      expect(first.at - t0).toBeGreaterThanOrEqual(100 + quietMs);
      expect(first.outcome.batch.files.map((f) => f.path).sort()).toEqual([
        "a.ts",
        "src/b.ts",
        "src/new/c.ts",
      ]);
      const results = readFileSync(join(dir, ".cpilot", "last-results.md"), "utf8");
      expect(results).toContain("status: OK");
    });

    test(".gitignore'd files, .git/ and .cpilot/ start nothing", async () => {
      const outcomes = start([{ name: "all", pattern: "**/*", run: "true", timeout: 10 }], mode, {
        ".gitignore": "build/\n*.log\n",
        "build/.keep": "",
      });
      await sleep(100);
      writeFileSync(join(dir, "build", "out.js"), "x");
      writeFileSync(join(dir, "debug.log"), "x");
      mkdirSync(join(dir, ".cpilot"), { recursive: true });
      writeFileSync(join(dir, ".cpilot", "state"), "x");
      writeFileSync(join(dir, ".git", "HEAD2"), "x");
      await sleep(900);
      expect(outcomes.length).toBe(0);
      writeFileSync(join(dir, "kept.txt"), "x");
      expect(await waitFor(() => outcomes.length === 1, 30_000)).toBe(true);
      expect(outcomes[0]?.outcome.batch.files.map((f) => f.path)).toEqual(["kept.txt"]);
    });

    test("a formatter that rewrites the file runs once, not forever", async () => {
      const counter = join(tempDir("cpilot-watch-count-"), "runs");
      const fmt = {
        name: "fmt",
        pattern: "**/*.txt",
        timeout: 10,
        run: `echo run >> '${counter}'; for f in $CP_CHANGED_FILES; do tr a-z A-Z < "$f" > "$f.tmp" && mv "$f.tmp" "$f"; done`,
      };
      const outcomes = start([fmt], mode);
      writeFileSync(join(dir, "note.txt"), "hello\n");
      expect(await waitFor(() => outcomes.length === 1, 30_000)).toBe(true);
      await sleep(2000);
      expect(readFileSync(join(dir, "note.txt"), "utf8")).toBe("HELLO\n");
      expect(readFileSync(counter, "utf8")).toBe("run\n");
      expect(outcomes.length).toBe(1);
      expect(outcomes[0]?.outcome.resyncs.map((r) => r.path)).toEqual(["note.txt"]);
      // the agent's next real edit is a change again
      writeFileSync(join(dir, "note.txt"), "again\n");
      expect(await waitFor(() => outcomes.length === 2, 30_000)).toBe(true);
      rmSync(join(counter, ".."), { recursive: true, force: true });
    });

    test("an atomic write's temp files are not checked; a tracked file's deletion is", async () => {
      const outcomes = start([{ name: "all", pattern: "**/*", run: "true", timeout: 10 }], mode, {
        "src/a.ts": "old\n",
        "src/b.ts": "old\n",
        "src/gone.ts": "tracked\n",
      });
      execFileSync("git", ["add", "."], { cwd: dir });
      await sleep(400);
      // what an agent's atomic write and `sed -i` leave behind: a temp file renamed onto the real one
      writeFileSync(join(dir, "src", "a.ts.a19053cc76ac.tmp"), "new\n");
      renameSync(join(dir, "src", "a.ts.a19053cc76ac.tmp"), join(dir, "src", "a.ts"));
      writeFileSync(join(dir, "src", "sedX1b2c3"), "new\n");
      renameSync(join(dir, "src", "sedX1b2c3"), join(dir, "src", "b.ts"));
      rmSync(join(dir, "src", "gone.ts"));
      expect(await waitFor(() => outcomes.length === 1, 30_000)).toBe(true);
      const files = outcomes[0]?.outcome.batch.files ?? [];
      expect(files.map((f) => `${f.path} ${f.kind}`).sort()).toEqual([
        "src/a.ts modified",
        "src/b.ts modified",
        "src/gone.ts deleted",
      ]);
    });

    test("a failure lands in .cpilot/last-results.md with its output", async () => {
      const outcomes = start(
        [{ name: "lint", pattern: "*.ts", run: "echo 'x.ts:1 nope'; exit 1", timeout: 10 }],
        mode,
      );
      writeFileSync(join(dir, "x.ts"), "1");
      expect(await waitFor(() => outcomes.length === 1, 30_000)).toBe(true);
      const text = readFileSync(join(dir, ".cpilot", "last-results.md"), "utf8");
      expect(text).toContain("status: FAILED: lint");
      expect(text).toContain("x.ts:1 error: nope"); // read as a diagnostic
      expect(existsSync(join(dir, ".cpilot", "last-results.md"))).toBe(true);
    });
  });
}
