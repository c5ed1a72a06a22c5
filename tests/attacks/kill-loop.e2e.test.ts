// A host SIGKILLed at any moment of a run's start (before, during or just after the spawn of
// the callback, before or after its running record is written) leaves nothing behind once
// the next run of that callback has started (issue 16, item 16).
import { expect, test } from "bun:test";
import { readdirSync, readFileSync, readlinkSync, writeFileSync } from "node:fs";
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
