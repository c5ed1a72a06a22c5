// A run's bookkeeping makes as few new files as it can (creating a file is the dear part
// of writing a small one: up to a millisecond on some disks): a locked run's lock is
// another name for its running record, the running record becomes the finished run's
// record, and the session's latest result is another name for that. And when the running
// record is not what cpilot left there, nothing outside is touched.
import { expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { recordResult, sessionResults } from "../../src/agent-session/session-state.ts";
import { createEngine } from "../../src/engine/engine.ts";
import { listRunning, openPendingRecord, runningDir } from "../../src/engine/running.ts";
import { readRun } from "../../src/engine/runs-store.ts";
import { ownStartTime } from "../../src/platform/process-start.ts";
import { runRecordPath } from "../../src/util/state-layout.ts";
import { tempDir, writeFiles } from "../helpers/tmp.ts";

/** Run one callback over a.ts; `script` runs in bash in the project. */
async function runOnce(script: string) {
  const root = tempDir("cpilot-reuse-");
  writeFiles(root, { "a.ts": "" });
  const engine = createEngine({
    root,
    config: { callbacks: [{ name: "c", pattern: "*.ts", run: script, timeout: 10 }] },
  });
  const outcome = await engine.run({
    root,
    files: [{ path: "a.ts", kind: "modified" }],
    origin: { surface: "api" },
  });
  const run = outcome.runs[0];
  if (run === undefined) throw new Error("no run");
  return { root, run };
}

test("the running record becomes the finished record: same file, new content", async () => {
  // the script sees its own running record and notes which file it is
  const { root, run } = await runOnce(
    'stat -c %i ".cpilot/running/$CP_RUN_ID.json" > ino; cat ".cpilot/running/$CP_RUN_ID.json" > was',
  );
  expect(run.status).toBe("passed");
  expect(JSON.parse(readFileSync(join(root, "was"), "utf8")).runId).toBe(run.id);
  const ino = Number(readFileSync(join(root, "ino"), "utf8"));
  expect(statSync(runRecordPath(root, run.id)).ino).toBe(ino);
  expect(readRun(root, run.id)?.status).toBe("passed");
  expect(readRun(root, run.id)?.per).toBe("batch");
  expect(() => statSync(join(root, ".cpilot", "running", `${run.id}.json`))).toThrow();
});

test("a session's latest result is the run's record under another name", async () => {
  const { root, run } = await runOnce("exit 3");
  recordResult(root, "s1", run, "batch", "");
  const [result] = sessionResults(root, "s1");
  expect(result).toEqual({
    config: "",
    callback: "c",
    per: "batch",
    files: ["a.ts"],
    blocking: true,
    status: "failed",
    runId: run.id,
    startedAt: (run as { startedAt?: number }).startedAt as number,
  });
  const linked = join(root, ".cpilot", "sessions", "s1", "results", "c.json");
  expect(statSync(linked).ino).toBe(statSync(runRecordPath(root, run.id)).ino);
});

test("a running record the script removed: the finished record is written anew", async () => {
  const { root, run } = await runOnce('rm -f ".cpilot/running/$CP_RUN_ID.json"');
  expect(run.status).toBe("passed");
  expect(readRun(root, run.id)?.status).toBe("passed");
});

for (const [name, plant] of [
  ["a hard link to another file", 'ln -f victim ".cpilot/running/$CP_RUN_ID.json"'],
  ["a symlink to another file", 'ln -sf "$PWD/victim" ".cpilot/running/$CP_RUN_ID.json"'],
] as const) {
  test(`a running record replaced by ${name}: that file is left alone`, async () => {
    const { root, run } = await runOnce(`printf keep > victim; ${plant}`);
    expect(run.status).toBe("passed");
    expect(readFileSync(join(root, "victim"), "utf8")).toBe("keep");
    expect(readRun(root, run.id)?.status).toBe("passed");
    expect(statSync(runRecordPath(root, run.id)).ino).not.toBe(statSync(join(root, "victim")).ino);
  });
}

test("a result written by an older cpilot (its own entry, runId) still reads", () => {
  const root = tempDir("cpilot-reuse-");
  const dir = join(root, ".cpilot", "sessions", "s1", "results");
  writeFiles(root, { ".cpilot/sessions/s1/results/.keep": "" });
  const entry = {
    callback: "c",
    per: "file",
    files: ["a.ts"],
    blocking: true,
    status: "passed",
    runId: "mx-1",
    startedAt: 5,
  };
  writeFileSync(join(dir, "c@x.json"), JSON.stringify(entry));
  // with no config named: the config of the folder it is kept in judged it
  expect(sessionResults(root, "s1")).toEqual([{ ...entry, config: "" } as never]);
});

test("a locked run's lock is another name for its running record", async () => {
  const { root, run } = await runOnce(
    'stat -c %i .cpilot/locks/c.lock > lock-ino; stat -c "%i %h" ".cpilot/running/$CP_RUN_ID.json" > rec',
  );
  expect(run.status).toBe("passed");
  const [recordIno, links] = readFileSync(join(root, "rec"), "utf8").trim().split(" ").map(Number);
  expect(Number(readFileSync(join(root, "lock-ino"), "utf8"))).toBe(recordIno as number);
  expect(links).toBe(2);
  // the lock is let go, and the record became the finished one
  expect(() => statSync(join(root, ".cpilot", "locks", "c.lock"))).toThrow();
  expect(statSync(runRecordPath(root, run.id)).ino).toBe(recordIno as number);
});

test("a record left by a run that never spawned is forgotten once its host is gone", () => {
  const root = tempDir("cpilot-reuse-");
  const fields = (runId: string, hostPid: number, hostStarted: number | null) => ({
    runId,
    callback: "c",
    session: null,
    ownerPid: hostPid,
    hostPid,
    hostStarted,
    batchId: "b",
    startedAt: Date.now(),
    command: "true",
    blocking: true,
    persist: false,
    depth: 0,
  });
  const mine = openPendingRecord(root, fields("live-1", process.pid, ownStartTime()));
  // a host that died while waiting for its lock (its pid now another process's)
  openPendingRecord(root, fields("dead-1", process.pid, 1)).close();
  expect(listRunning(root)).toEqual([]);
  expect(readdirSync(runningDir(root)).sort()).toEqual(["live-1.json"]);
  mine.close();
});
