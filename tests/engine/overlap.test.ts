import { expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { CallbackDef } from "../../src/config/types.ts";
import type { RunResult } from "../../src/model/outcome.ts";
import { tempDir, waitFor, writeFiles } from "../helpers/tmp.ts";

const FIXTURE = join(import.meta.dir, "fixtures", "run-engine.ts");

/** Run a batch in a separate cpilot process, as parallel agent hooks do. */
function runInProcess(
  root: string,
  callbacks: CallbackDef[],
  files: string[],
): Promise<RunResult[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [FIXTURE, root, JSON.stringify(callbacks), ...files], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (c) => {
      out += c;
    });
    child.on("error", reject);
    child.on("close", () => resolve(JSON.parse(out) as RunResult[]));
  });
}

function events(root: string): string[] {
  return readFileSync(join(root, "events"), "utf8").trim().split("\n");
}

/** A run that lasts until the test creates `release` (30 s at most): no race with the clock. */
const held = (name: string) =>
  `echo "start $CP_RUN_ID" >> events; i=0; while [ ! -e release ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i+1)); done; echo "end $CP_RUN_ID" >> events; echo ${name}`;

/** Lines of `events` that begin with `word` ("start" or "end"). */
function count(root: string, word: string): number {
  try {
    return events(root).filter((l) => l.startsWith(`${word} `)).length;
  } catch {
    return 0;
  }
}

/**
 * Runs of the project that exist now, started or waiting for their callback's lock: a run's
 * record is written before it takes the lock.
 */
function runRecords(root: string): number {
  try {
    return readdirSync(join(root, ".cpilot", "running")).filter((n) => n.endsWith(".json")).length;
  } catch {
    return 0;
  }
}

function release(root: string): void {
  writeFileSync(join(root, "release"), "");
}

test("queue: a second process waits for the first run of the same callback", async () => {
  const root = tempDir();
  writeFiles(root, { "a.ts": "" });
  const cb: CallbackDef[] = [
    { name: "slow", pattern: "*.ts", run: held("slow"), timeout: 40, overlap: "queue" },
  ];
  const first = runInProcess(root, cb, ["a.ts"]);
  expect(await waitFor(() => count(root, "start") === 1, 30_000)).toBe(true);
  const second = runInProcess(root, cb, ["a.ts"]);
  // The second run exists while the first still holds: they contend, whatever the load.
  expect(await waitFor(() => runRecords(root) === 2, 30_000)).toBe(true);
  release(root);
  const [a, b] = await Promise.all([first, second]);
  expect(a[0]?.status).toBe("passed");
  expect(b[0]?.status).toBe("passed");
  expect(events(root)).toEqual([
    `start ${a[0]?.id}`,
    `end ${a[0]?.id}`,
    `start ${b[0]?.id}`,
    `end ${b[0]?.id}`,
  ]);
});

test("replace: a newer batch stops the running one and says so", async () => {
  const root = tempDir();
  writeFiles(root, { "a.ts": "" });
  const cb: CallbackDef[] = [
    { name: "check", pattern: "*.ts", run: held("check"), timeout: 40, overlap: "replace" },
  ];
  const first = runInProcess(root, cb, ["a.ts"]);
  expect(await waitFor(() => count(root, "start") === 1, 30_000)).toBe(true);
  const second = runInProcess(root, cb, ["a.ts"]);
  // the second run starts only once the first is stopped; then both may end
  expect(await waitFor(() => count(root, "start") === 2, 30_000)).toBe(true);
  release(root);
  const [a, b] = await Promise.all([first, second]);
  expect(a[0]?.status).toBe("replaced");
  expect(a[0]?.summary).toBe(`stopped: replaced by run ${b[0]?.id}`);
  expect(b[0]?.status).toBe("passed");
  expect(events(root)).toEqual([`start ${a[0]?.id}`, `start ${b[0]?.id}`, `end ${b[0]?.id}`]);
});

test("parallel: two processes run the same callback at once", async () => {
  const root = tempDir();
  writeFiles(root, { "a.ts": "" });
  const cb: CallbackDef[] = [
    { name: "p", pattern: "*.ts", run: held("p"), timeout: 40, overlap: "parallel" },
  ];
  const first = runInProcess(root, cb, ["a.ts"]);
  const second = runInProcess(root, cb, ["a.ts"]);
  // Neither run ends before the test releases them, so both have started only if the second
  // did not wait for the first, however slowly either process comes up.
  const bothStarted = await waitFor(() => count(root, "start") === 2, 30_000);
  release(root);
  const [a, b] = await Promise.all([first, second]);
  expect(bothStarted).toBe(true);
  expect(events(root).slice(0, 2).sort()).toEqual(
    [`start ${a[0]?.id}`, `start ${b[0]?.id}`].sort(),
  );
  expect([a[0]?.status, b[0]?.status]).toEqual(["passed", "passed"]);
});

test("per-file runs of one batch queue behind each other instead of replacing", async () => {
  const root = tempDir();
  writeFiles(root, { "a.ts": "", "b.ts": "" });
  const cb: CallbackDef[] = [
    { name: "r", pattern: "*.ts", per: "file", run: held("r"), timeout: 40, overlap: "replace" },
  ];
  const batch = runInProcess(root, cb, ["a.ts", "b.ts"]);
  expect(await waitFor(() => count(root, "start") === 1, 30_000)).toBe(true);
  // both runs exist while the first holds: the second waits instead of replacing it
  expect(await waitFor(() => runRecords(root) === 2, 30_000)).toBe(true);
  release(root);
  const runs = await batch;
  expect(runs.map((r) => r.status)).toEqual(["passed", "passed"]);
  // either file's run may take the lock first; the other starts only once it has ended
  const firstId = events(root)[0]?.split(" ")[1];
  const secondId = runs.map((r) => r.id).find((id) => id !== firstId);
  expect(events(root)).toEqual([
    `start ${firstId}`,
    `end ${firstId}`,
    `start ${secondId}`,
    `end ${secondId}`,
  ]);
});
