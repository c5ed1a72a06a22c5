import { expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
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

const logged = (name: string) =>
  `echo "start $CP_RUN_ID" >> events; sleep 0.6; echo "end $CP_RUN_ID" >> events; echo ${name}`;

test("queue: a second process waits for the first run of the same callback", async () => {
  const root = tempDir();
  writeFiles(root, { "a.ts": "" });
  const cb: CallbackDef[] = [
    { name: "slow", pattern: "*.ts", run: logged("slow"), timeout: 10, overlap: "queue" },
  ];
  const first = runInProcess(root, cb, ["a.ts"]);
  await waitFor(() => {
    try {
      return events(root).length > 0;
    } catch {
      return false;
    }
  });
  const second = runInProcess(root, cb, ["a.ts"]);
  const [a, b] = await Promise.all([first, second]);
  expect(a[0]?.status).toBe("passed");
  expect(b[0]?.status).toBe("passed");
  const e = events(root);
  expect(e).toEqual([
    `start ${a[0]?.id}`,
    `end ${a[0]?.id}`,
    `start ${b[0]?.id}`,
    `end ${b[0]?.id}`,
  ]);
});

/** A run that lasts until the test creates `release` (30 s at most): no race with the clock. */
const held = (name: string) =>
  `echo "start $CP_RUN_ID" >> events; i=0; while [ ! -e release ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i+1)); done; echo "end $CP_RUN_ID" >> events; echo ${name}`;

test("replace: a newer batch stops the running one and says so", async () => {
  const root = tempDir();
  writeFiles(root, { "a.ts": "" });
  const cb: CallbackDef[] = [
    { name: "check", pattern: "*.ts", run: held("check"), timeout: 40, overlap: "replace" },
  ];
  const first = runInProcess(root, cb, ["a.ts"]);
  await waitFor(() => {
    try {
      return events(root).length > 0;
    } catch {
      return false;
    }
  });
  const second = runInProcess(root, cb, ["a.ts"]);
  // the second run starts only once the first is stopped; then both may end
  await waitFor(() => events(root).length >= 2, 30_000);
  writeFileSync(join(root, "release"), "");
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
    { name: "p", pattern: "*.ts", run: logged("p"), timeout: 10, overlap: "parallel" },
  ];
  const [a, b] = await Promise.all([
    runInProcess(root, cb, ["a.ts"]),
    runInProcess(root, cb, ["a.ts"]),
  ]);
  const e = events(root);
  expect(e.slice(0, 2).every((l) => l.startsWith("start"))).toBe(true);
  expect(new Set([a[0]?.status, b[0]?.status])).toEqual(new Set(["passed"]));
});

test("per-file runs of one batch queue behind each other instead of replacing", async () => {
  const root = tempDir();
  writeFiles(root, { "a.ts": "", "b.ts": "" });
  const cb: CallbackDef[] = [
    { name: "r", pattern: "*.ts", per: "file", run: logged("r"), timeout: 10, overlap: "replace" },
  ];
  const runs = await runInProcess(root, cb, ["a.ts", "b.ts"]);
  expect(runs.map((r) => r.status)).toEqual(["passed", "passed"]);
  expect(events(root).map((l) => l.split(" ")[0])).toEqual(["start", "end", "start", "end"]);
});
