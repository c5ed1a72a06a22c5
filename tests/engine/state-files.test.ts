// cpilot reads its state files back (running records, lock files, session folders, run
// logs), and anyone with a shell in the project, or a commit, can write them. What they
// say must never make cpilot signal processes it did not start or delete what is not its
// own. Signals are tested with SIGCONT, which harms nothing even if a guard fails.
import { expect, test } from "bun:test";
import { execFileSync, spawn, spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { postNotice, takeNotices } from "../../src/agent-session/inbox.ts";
import {
  pruneSessions,
  recordResult,
  sessionResults,
} from "../../src/agent-session/session-state.ts";
import { acquireOverlap } from "../../src/engine/overlap.ts";
import {
  listRunning,
  openPendingRecord,
  runningDir,
  stopOrphans,
} from "../../src/engine/running.ts";
import { listRuns, openRunLog, pruneRuns, readRun } from "../../src/engine/runs-store.ts";
import { appendGateLog, readGateLog } from "../../src/gate/log.ts";
import { killGroup } from "../../src/platform/spawn-group.ts";
import { processAlive, tempDir } from "../helpers/tmp.ts";

const OLD = new Date(Date.now() - 30 * 24 * 3600 * 1000);

/** What a run that takes a lock writes first: its pending record, which the lock links to. */
function holderFile(root: string, runId: string, batchId: string): string {
  return openPendingRecord(root, {
    runId,
    callback: "fmt",
    session: null,
    ownerPid: process.pid,
    hostPid: process.pid,
    hostStarted: null,
    batchId,
    startedAt: Date.now(),
    command: "true",
    blocking: true,
    persist: false,
    depth: 0,
  }).path;
}

test("no group but a run's is signalled: not 0 (our group), not 1 (-1: everyone), not us", () => {
  for (const pid of [0, 1, -1, process.pid, 1.5, Number.NaN]) {
    expect(killGroup(pid, "SIGCONT")).toBe(false);
  }
});

test("running records that are not cpilot's are neither signalled, listed nor deleted", () => {
  const root = tempDir();
  const dir = runningDir(root);
  mkdirSync(dir, { recursive: true });
  const outside = join(root, "keep.json");
  writeFileSync(outside, "{}");
  const record = (runId: string, pid: number) =>
    JSON.stringify({ runId, pid, callback: "x", session: null, ownerPid: 2 ** 22 + 1 });
  writeFileSync(join(dir, "everyone.json"), record("everyone", 1));
  writeFileSync(join(dir, "own-group.json"), record("own-group", 0));
  // an id that names another file than the record: deleting "its" record would remove keep.json
  writeFileSync(join(dir, "escape.json"), record("../../keep", 2 ** 22 + 7));
  expect(listRunning(root)).toEqual([]);
  expect(readdirSync(dir).sort()).toEqual(["escape.json", "everyone.json", "own-group.json"]);
  expect(existsSync(outside)).toBe(true);
});

test("a lock file naming a path as its run id is not obeyed; a garbage one is cleared", async () => {
  const root = tempDir();
  mkdirSync(join(root, ".cpilot", "locks"), { recursive: true });
  const lock = join(root, ".cpilot", "locks", "fmt.lock");
  const mine = holderFile(root, "mine-1", "b1");
  const take = () =>
    acquireOverlap({
      root,
      callback: "fmt",
      mode: "replace",
      runId: "mine-1",
      batchId: "b1",
      holderFile: mine,
      signal: new AbortController().signal,
      abort: new AbortController(),
    });
  // A live holder (this process) whose id would put a "replaced-by" marker outside .cpilot/.
  writeFileSync(
    lock,
    JSON.stringify({ pid: process.pid, runId: "../../x", batchId: "b0", pgid: null }),
  );
  const held = await take();
  expect(held).not.toBeNull();
  expect(existsSync(join(root, "x.replaced-by"))).toBe(false);
  held?.release();
  // Unreadable and old: left by a crash, not being written; it must not block forever.
  writeFileSync(lock, "{");
  utimesSync(lock, OLD, OLD);
  const again = await take();
  expect(again).not.toBeNull();
  again?.release();
});

test("pruning never deletes through a symlinked state folder, or files it did not write", () => {
  const root = tempDir();
  const elsewhere = tempDir("cpilot-elsewhere-");
  for (let i = 0; i < 500; i++) writeFileSync(join(elsewhere, `note-${i}.json`), "{}");
  mkdirSync(join(elsewhere, "old-project"));
  utimesSync(join(elsewhere, "old-project"), OLD, OLD);
  mkdirSync(join(root, ".cpilot"), { recursive: true });
  symlinkSync(elsewhere, join(root, ".cpilot", "runs"));
  symlinkSync(elsewhere, join(root, ".cpilot", "sessions"));
  pruneRuns(root, 10);
  expect(pruneSessions(root)).toBe(0);
  expect(readdirSync(elsewhere)).toHaveLength(501);

  // In its own runs folder, only run files go: a user's notes.json stays.
  const own = tempDir();
  const runs = join(own, ".cpilot", "runs");
  mkdirSync(runs, { recursive: true });
  writeFileSync(join(runs, "notes.json"), "{}");
  for (let i = 0; i < 60; i++) {
    const id = `${(1_700_000_000_000 + i).toString(36)}-a1b2c3`;
    writeFileSync(join(runs, `${id}.log`), "");
    writeFileSync(join(runs, `${id}.json`), "{}");
  }
  pruneRuns(own, 10);
  expect(existsSync(join(runs, "notes.json"))).toBe(true);
  expect(readdirSync(runs).filter((n) => n.endsWith(".log"))).toHaveLength(10);
});

test('a session called ".." is a folder of its own, not the state folder above', () => {
  const root = tempDir();
  mkdirSync(join(root, ".cpilot"), { recursive: true });
  writeFileSync(join(root, ".cpilot", "state.json"), '{"disabled":[]}');
  postNotice(root, "..", { kind: "note", text: "hello" });
  expect(takeNotices(root, "..").map((n) => n.text)).toEqual(["hello"]);
  // taken as a notice, the toggles file would have been deleted
  expect(existsSync(join(root, ".cpilot", "state.json"))).toBe(true);
});

test("state files are never appended to through a symlink, nor waited on as a FIFO", () => {
  const root = tempDir();
  mkdirSync(join(root, ".cpilot", "cache"), { recursive: true });
  const bashrc = join(tempDir("cpilot-elsewhere-"), ".bashrc");
  writeFileSync(bashrc, "# mine\n");
  symlinkSync(bashrc, join(root, ".cpilot", "gate.log.jsonl"));
  expect(() =>
    appendGateLog(join(root, ".cpilot", "gate.log.jsonl"), {
      at: new Date().toISOString(),
    } as never),
  ).toThrow();
  expect(readFileSync(bashrc, "utf8")).toBe("# mine\n");
  expect(readGateLog(root)).toEqual([]);

  // FIFOs where cpilot reads on every call: in a child with a deadline (a blocked open
  // cannot be interrupted from inside)
  execFileSync("mkfifo", [join(root, ".cpilot", "cache", "valid-configs")]);
  execFileSync("mkfifo", [join(root, ".cpilot", "state.json")]);
  const src = join(import.meta.dir, "../../src");
  const script = `const { knownValid, rememberValid } = await import(${JSON.stringify(`${src}/config/validation-cache.ts`)});
const { readToggles } = await import(${JSON.stringify(`${src}/config/state.ts`)});
rememberValid(${JSON.stringify(root)}, "abc");
console.log(JSON.stringify([knownValid(${JSON.stringify(root)}, "abc"), readToggles(${JSON.stringify(root)}).allDisabled]));`;
  const r = spawnSync(process.execPath, ["-e", script], { encoding: "utf8", timeout: 30_000 });
  expect(r.signal).toBeNull();
  expect(JSON.parse(r.stdout)).toEqual([false, false]);
});

test("a run record cannot point `cpilot logs` at another file, and a malformed one is skipped", () => {
  const root = tempDir();
  const runs = join(root, ".cpilot", "runs");
  mkdirSync(runs, { recursive: true });
  const secret = join(tempDir("cpilot-elsewhere-"), "secret.txt");
  writeFileSync(secret, "password\n");
  const record = {
    callback: "t",
    status: "passed",
    summary: "exit 0",
    durationMs: 1,
    startedAt: 1,
    files: ["a.ts"],
    logPath: secret,
  };
  writeFileSync(join(runs, "mhx8k2p1-a3f9c1.json"), JSON.stringify(record));
  writeFileSync(join(runs, "mhx8k2p2-a3f9c1.json"), JSON.stringify({ ...record, files: 3 }));
  const run = readRun(root, "mhx8k2p1-a3f9c1");
  expect(run?.logPath).toBe(join(runs, "mhx8k2p1-a3f9c1.log"));
  expect(run === null ? null : openRunLog(run)).toBeNull(); // no log of its own
  symlinkSync(secret, join(runs, "mhx8k2p1-a3f9c1.log"));
  expect(run === null ? null : openRunLog(run)).toBeNull(); // not through a symlink
  expect(readRun(root, "mhx8k2p2-a3f9c1")).toBeNull();
  expect(listRuns(root).map((r) => r.id)).toEqual(["mhx8k2p1-a3f9c1"]);
});

test("a notice or a session result that is not cpilot's is skipped, and the rest still arrive", () => {
  const root = tempDir();
  postNotice(root, "s1", { kind: "run", text: "✗ lint failed", failing: true });
  const inbox = join(root, ".cpilot", "inbox", "s1");
  writeFileSync(join(inbox, "00000000000000000000-aaaaaaaa.json"), "null");
  writeFileSync(join(inbox, "00000000000000000001-aaaaaaaa.json"), "{}");
  expect(takeNotices(root, "s1").map((n) => n.text)).toEqual(["✗ lint failed"]);

  recordResult(
    root,
    "s1",
    {
      callback: "lint",
      files: ["a.ts"],
      blocking: true,
      status: "failed",
      id: "r1",
      startedAt: 1,
    } as never,
    "batch",
    "",
  );
  const results = join(root, ".cpilot", "sessions", "s1", "results");
  writeFileSync(join(results, "zz-bad.json"), JSON.stringify({ blocking: true, status: "failed" }));
  expect(sessionResults(root, "s1").map((r) => r.callback)).toEqual(["lint"]);
});

test("a lock whose pid now belongs to another process (reused after a crash) is taken over", async () => {
  if (!existsSync(`/proc/${process.pid}/stat`)) return; // the check needs /proc
  const root = tempDir();
  mkdirSync(join(root, ".cpilot", "locks"), { recursive: true });
  // this process is alive, but it did not start at tick 1: the holder died long ago
  writeFileSync(
    join(root, ".cpilot", "locks", "fmt.lock"),
    JSON.stringify({ pid: process.pid, started: 1, runId: "old-1", batchId: "b0", pgid: null }),
  );
  const lock = await acquireOverlap({
    root,
    callback: "fmt",
    mode: "queue",
    runId: "mine-1",
    batchId: "b1",
    holderFile: holderFile(root, "mine-1", "b1"),
    signal: AbortSignal.timeout(20_000),
    abort: new AbortController(),
  });
  expect(lock).not.toBeNull();
  lock?.release();
});

test("a planted record or lock naming someone else's process group gets no signal", async () => {
  if (!existsSync(`/proc/${process.pid}/stat`)) return; // start times come from /proc
  const root = tempDir();
  // the "victim": a process group of its own that cpilot did not start
  const victim = spawn("sleep", ["30"], { detached: true, stdio: "ignore" });
  try {
    const pgid = victim.pid as number;
    mkdirSync(runningDir(root), { recursive: true });
    writeFileSync(
      join(runningDir(root), "planted-1.json"),
      JSON.stringify({ runId: "planted-1", pid: pgid, ownerPid: 2 ** 22 + 3, persist: false }),
    );
    await stopOrphans(root, 100);
    mkdirSync(join(root, ".cpilot", "locks"), { recursive: true });
    writeFileSync(
      join(root, ".cpilot", "locks", "fmt.lock"),
      JSON.stringify({ pid: process.pid, runId: "planted-2", batchId: "b0", pgid }),
    );
    // a replacing run signals the group the holder's running record names: a planted one
    // names the victim, but the victim did not start at tick 1
    writeFileSync(
      join(runningDir(root), "planted-2.json"),
      JSON.stringify({ runId: "planted-2", pid: pgid, pidStarted: 1, ownerPid: process.pid }),
    );
    const waiting = acquireOverlap({
      root,
      callback: "fmt",
      mode: "replace",
      runId: "mine-1",
      batchId: "b1",
      holderFile: holderFile(root, "mine-1", "b1"),
      signal: AbortSignal.timeout(500),
      abort: new AbortController(),
    });
    await waiting;
    expect(processAlive(pgid)).toBe(true);
  } finally {
    victim.kill("SIGKILL");
  }
});

test("a FIFO where a lock file belongs is cleared, not waited on", () => {
  const root = tempDir();
  mkdirSync(join(root, ".cpilot", "locks"), { recursive: true });
  const lock = join(root, ".cpilot", "locks", "fmt.lock");
  execFileSync("mkfifo", [lock]);
  utimesSync(lock, OLD, OLD);
  // in a child with a deadline: a blocked open cannot be interrupted from inside
  const module = join(import.meta.dir, "../../src/engine/overlap.ts");
  const script = `const { acquireOverlap } = await import(${JSON.stringify(module)});
const lock = await acquireOverlap({ root: ${JSON.stringify(root)}, callback: "fmt", mode: "queue",
  runId: "mine-1", batchId: "b1", holderFile: ${JSON.stringify(holderFile(root, "mine-1", "b1"))},
  signal: AbortSignal.timeout(20_000), abort: new AbortController() });
console.log(lock === null ? "none" : "taken");`;
  const r = spawnSync(process.execPath, ["-e", script], { encoding: "utf8", timeout: 30_000 });
  expect(r.signal).toBeNull();
  expect(r.stdout.trim()).toBe("taken");
});
