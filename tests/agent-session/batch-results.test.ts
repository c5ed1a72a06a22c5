import { expect, test } from "bun:test";
import { recordResult, sessionResults } from "../../src/agent-session/session-state.ts";
import type { RunResult } from "../../src/model/outcome.ts";
import { tempDir } from "../helpers/tmp.ts";

function run(id: string, status: RunResult["status"], files: string[], startedAt: number) {
  return {
    id,
    callback: "lint",
    files,
    blocking: true,
    status,
    exitCode: status === "passed" ? 0 : 1,
    signal: null,
    durationMs: 5,
    logPath: "",
    tail: [],
    summary: "",
    successMessage: undefined,
    startedAt,
  };
}

const failing = (root: string) =>
  sessionResults(root, "s1")
    .filter((r) => r.status === "failed")
    .flatMap((r) => r.files);

test("a per-batch pass clears only the files it covered", () => {
  const root = tempDir();
  recordResult(root, "s1", run("r1", "failed", ["a.txt"], 1000), "batch", "");
  recordResult(root, "s1", run("r2", "passed", ["b.txt"], 2000), "batch", "");
  expect(failing(root)).toEqual(["a.txt"]);
  recordResult(root, "s1", run("r3", "failed", ["c.txt"], 3000), "batch", "");
  expect(failing(root)).toEqual(["a.txt", "c.txt"]);
  recordResult(root, "s1", run("r4", "passed", ["a.txt", "c.txt"], 4000), "batch", "");
  expect(failing(root)).toEqual([]);
});

test("results recorded out of order (hooks finishing together) do not undo each other", () => {
  const root = tempDir();
  // the pass on b.txt is recorded first, the older failure on a.txt after it
  recordResult(root, "s1", run("r2", "passed", ["b.txt"], 2000), "batch", "");
  recordResult(root, "s1", run("r1", "failed", ["a.txt"], 1000), "batch", "");
  expect(failing(root)).toEqual(["a.txt"]);
  // a newer pass on a.txt recorded before an older failure on it: a.txt is fixed
  const other = tempDir();
  recordResult(other, "s1", run("r4", "passed", ["a.txt"], 4000), "batch", "");
  recordResult(other, "s1", run("r3", "failed", ["a.txt"], 3000), "batch", "");
  expect(failing(other)).toEqual([]);
});
