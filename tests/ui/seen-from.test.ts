import { expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Outcome, RunResult } from "../../src/model/outcome.ts";
import { outcomeSeenFrom, pathMove, repositoryTop } from "../../src/ui/seen-from.ts";
import { tempDir } from "../helpers/tmp.ts";

/** A repository with packages/web in it, and a folder outside any repository. */
function places(): { top: string; web: string; outside: string } {
  const top = tempDir("cpilot-seen-", { git: true });
  const web = join(top, "packages/web");
  mkdirSync(web, { recursive: true });
  return { top, web, outside: tempDir("cpilot-seen-outside-") };
}

const run: RunResult = {
  id: "r1",
  callback: "lint",
  files: ["src/a.ts"],
  blocking: true,
  status: "failed",
  exitCode: 1,
  signal: null,
  durationMs: 1,
  logPath: "/logs/r1.log",
  tail: ["src/a.ts:3:1: error: BAD"],
  summary: "exit 1",
  successMessage: undefined,
  diagnostics: [
    {
      file: "src/a.ts",
      line: 3,
      column: 1,
      severity: "error",
      code: "",
      message: "BAD",
      tool: "t",
    },
    { file: "", line: 0, column: 0, severity: "error", code: "", message: "no file", tool: "t" },
    {
      file: "/usr/include/x.h",
      line: 1,
      column: 0,
      severity: "warning",
      code: "",
      message: "m",
      tool: "t",
    },
  ],
  unreached: ["src/b.ts"],
};

const outcome = (root: string): Outcome => ({
  batch: { root, files: [{ path: "src/a.ts", kind: "modified" }], origin: { surface: "check" } },
  ok: false,
  runs: [run],
  resyncs: [{ path: "src/c.ts", diff: "", newText: "x", oldText: "y" }],
  notes: [],
  leftOut: new Map([["vendor", "not the project's own"]]),
});

test("a package's outcome seen from the repository's top: every path it names from there, the raw output as printed", () => {
  const { top, web } = places();
  const seen = outcomeSeenFrom(outcome(web), top);
  expect(seen.batch.root).toBe(top);
  expect(seen.batch.files.map((f) => f.path)).toEqual(["packages/web/src/a.ts"]);
  const [r] = seen.runs;
  expect(r?.files).toEqual(["packages/web/src/a.ts"]);
  expect(r?.diagnostics?.map((d) => d.file)).toEqual([
    "packages/web/src/a.ts",
    "",
    "/usr/include/x.h",
  ]);
  expect(r?.unreached).toEqual(["packages/web/src/b.ts"]);
  expect(r?.tail).toEqual(run.tail);
  expect(r?.logPath).toBe(run.logPath);
  expect(seen.resyncs.map((x) => x.path)).toEqual(["packages/web/src/c.ts"]);
  expect([...(seen.leftOut?.keys() ?? [])]).toEqual(["packages/web/vendor"]);
});

test("seen from below or beside the judged folder: climbs as git names them; from the same folder: the outcome itself", () => {
  const { top, web } = places();
  mkdirSync(join(top, "packages/api"));
  expect(pathMove(top, web)?.("packages/web/src/a.ts")).toBe("src/a.ts");
  expect(pathMove(top, web)?.("README.md")).toBe("../../README.md");
  expect(pathMove(web, join(top, "packages/api"))?.("src/a.ts")).toBe("../web/src/a.ts");
  const same = outcome(web);
  expect(outcomeSeenFrom(same, web)).toBe(same);
});

test("a reader outside the repository, or in a folder that is gone, is given the paths as they were", () => {
  const { web, outside } = places();
  const o = outcome(web);
  expect(pathMove(web, outside)).toBeNull();
  expect(outcomeSeenFrom(o, outside)).toBe(o);
  expect(repositoryTop(outside)).toBe(outside);
  // nor is a folder that is gone (a payload's stale cwd) a place to name paths from
  expect(pathMove(web, join(web, "gone"))).toBeNull();
});
