import { expect, test } from "bun:test";
import type { Diagnostic } from "../../../src/model/diagnostic.ts";
import type { Outcome, RunResult } from "../../../src/model/outcome.ts";
import { reportOutcome } from "../../../src/ui/agent/render-outcome.ts";

const OLD_LINT: Diagnostic = {
  file: "up/src/lib.rs",
  line: 2,
  column: 5,
  severity: "error",
  code: "clippy::needless_return",
  message: "unneeded `return` statement",
  tool: "cargo",
  baseline: "unchanged",
  since: "run",
};

/** A clippy run that stopped at an old lint in `up` before the edited down/src/lib.rs. */
const stopped: RunResult = {
  id: "first-1",
  callback: "clippy",
  files: ["down/src/lib.rs"],
  blocking: true,
  status: "failed",
  exitCode: 101,
  signal: null,
  durationMs: 1,
  logPath: "",
  tail: [],
  summary: "exit 101",
  successMessage: undefined,
  diagnostics: [OLD_LINT],
  unreached: ["down/src/lib.rs"],
};

const rerun = (status: "passed" | "failed" | "timed_out"): RunResult => ({
  ...stopped,
  id: "again-2",
  status,
  diagnostics: [],
  unreached: [],
  reachAgainOf: {
    runId: "first-1",
    stoppedIn: ["up"],
    crates: ["down"],
    flags: "-p down --no-deps",
  },
});

const outcome = (runs: RunResult[]): Outcome => ({
  batch: {} as Outcome["batch"],
  ok: false,
  runs,
  resyncs: [],
  notes: [],
});

const reached = (status: "passed" | "failed" | "timed_out") =>
  outcome([
    { ...stopped, reachedAgain: { runId: "again-2", status, crates: ["down"] } },
    rerun(status),
  ]);

test("a run stopped at old errors blocks while no run again reached the edited files", () => {
  const alone = reportOutcome(outcome([stopped]), { tailLines: 5 });
  expect(alone.failures).toHaveLength(1);
  expect(alone.failures[0]).toContain("your edits there were not checked");
  const unfinished = reportOutcome(reached("timed_out"), { tailLines: 5 });
  expect(unfinished.failures.some((f) => f.includes("did not finish"))).toBe(true);
});

test("once a run again reached the edited files and passed, the old errors inform and do not block", () => {
  const report = reportOutcome(reached("passed"), { tailLines: 5 });
  expect(report.failures).toEqual([]);
  expect(report.info.join("\n")).toContain("which reached your edits there and passed");
});

test("a run again that failed blocks; the run it stands for informs", () => {
  const report = reportOutcome(reached("failed"), { tailLines: 5 });
  expect(report.failures).toHaveLength(1);
  expect(report.failures[0]).toContain(
    "cpilot ran it again for crate down alone (-p down --no-deps",
  );
  expect(report.info.join("\n")).toContain("which reached your edits there and failed");
});
