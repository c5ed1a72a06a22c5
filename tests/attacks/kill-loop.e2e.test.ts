// A host SIGKILLed at any moment of a run's start (before, during or just after the spawn of
// the callback, before or after its running record is written) leaves nothing behind once
// the next run of that callback has started (issue 16, item 16).
import { expect, test } from "bun:test";
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { processAlive, waitFor } from "../helpers/tmp.ts";
import { attackProject, run, spawnBinary } from "./_helpers.ts";

/** Processes whose working folder is `dir` and whose environment has a run id. */
function callbackProcesses(dir: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync("/proc")) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    try {
      if (readlinkSync(`/proc/${pid}/cwd`) !== dir) continue;
      if (!readFileSync(`/proc/${pid}/environ`, "latin1").includes("CP_RUN_ID=")) continue;
      if (processAlive(pid)) found.push(pid);
    } catch {
      // gone, or not ours to read
    }
  }
  return found;
}

const KILLS = 40;

for (const overlap of ["queue", "parallel"] as const) {
  test.skipIf(process.platform !== "linux")(
    `${KILLS} checks SIGKILLed at every moment of a run's start leave no ${overlap} callback running after the next check`,
    async () => {
      const dir = attackProject(
        [
          {
            name: "slow",
            pattern: "*.txt",
            run: "if [ -e fast ]; then exit 0; fi; sleep 120",
            overlap,
            timeout: 300,
          },
        ],
        { "a.txt": "a\n" },
      );
      try {
        for (let i = 0; i < KILLS; i++) {
          const check = spawnBinary(dir, ["check", "a.txt"]);
          const exited = new Promise((r) => check.on("exit", r));
          // From before the run starts to well after its callback is up.
          await new Promise((r) => setTimeout(r, 20 + ((i * 37) % 400)));
          check.kill("SIGKILL");
          await exited;
        }
        writeFileSync(join(dir, "fast"), "");
        // The next check of the callback stops what its killed predecessors left.
        expect((await run(dir, ["check", "a.txt"])).code).toBe(0);
        expect(await waitFor(() => callbackProcesses(dir).length === 0, 10_000)).toBe(true);
      } finally {
        for (const pid of callbackProcesses(dir)) process.kill(pid, "SIGKILL");
      }
    },
    240_000,
  );
}

for (const overlap of ["queue", "parallel"] as const) {
  test.skipIf(process.platform !== "linux")(
    `a ${overlap} run whose host died between the spawn and recording its process is stopped by the next run`,
    async () => {
      const dir = attackProject(
        [{ name: "slow", pattern: "*.txt", run: "true", overlap, timeout: 60 }],
        { "a.txt": "a\n" },
      );
      // What a host SIGKILLed right after the spawn leaves: its record without a process
      // (and no lock: a parallel callback takes none, a queued run whose lock could not be
      // made runs without), and the callback, running, its run id in its environment.
      const host = spawnSync("true");
      const runId = "attack-host-died";
      mkdirSync(join(dir, ".cpilot", "running"), { recursive: true });
      writeFileSync(
        join(dir, ".cpilot", "running", `${runId}.json`),
        JSON.stringify({
          runId,
          callback: "slow",
          pid: null,
          session: null,
          ownerPid: host.pid,
          hostPid: host.pid,
          hostStarted: null,
          batchId: "b",
          startedAt: Date.now(),
          command: "sleep 120",
          blocking: true,
          persist: false,
          depth: 0,
        }),
      );
      const orphan = spawn("sleep", ["120"], {
        cwd: dir,
        env: { PATH: process.env.PATH, CP_RUN_ID: runId },
        detached: true,
        stdio: "ignore",
      });
      try {
        expect(await waitFor(() => callbackProcesses(dir).length === 1, 10_000)).toBe(true);
        expect((await run(dir, ["check", "a.txt"])).code).toBe(0);
        expect(await waitFor(() => callbackProcesses(dir).length === 0, 10_000)).toBe(true);
      } finally {
        orphan.kill("SIGKILL");
      }
    },
    60_000,
  );
}
