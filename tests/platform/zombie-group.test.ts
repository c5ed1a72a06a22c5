// A run's leftovers are orphans, reaped by the system's init when it gets round to it (a
// container's first process may never). A group of zombies has nothing left to stop, and
// must not make a stopped run wait out the grace period. Made here with a parent that
// forks a child into a group of its own and never reaps it.
import { afterEach, expect, test } from "bun:test";
import { type ChildProcess, spawn } from "node:child_process";
import { groupHasLiveMember } from "../../src/platform/process-group.ts";
import { groupAlive, reapGroup } from "../../src/platform/spawn-group.ts";

const linux = process.platform === "linux";

const ZOMBIE_MAKER = `
import os, sys, time
pid = os.fork()
if pid == 0:
    os.setpgid(0, 0)
    if sys.argv[1] == "live":
        time.sleep(30)
    os._exit(0)
time.sleep(0.2)
print(pid, flush=True)
time.sleep(30)
`;

let parent: ChildProcess | null = null;
afterEach(() => {
  parent?.kill("SIGKILL");
  parent = null;
});

/** The pid (= pgid) of a child in its own group: a zombie, or still running. */
function groupOf(kind: "zombie" | "live"): Promise<number> {
  parent = spawn("python3", ["-c", ZOMBIE_MAKER, kind], { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve) => {
    parent?.stdout?.once("data", (d) => resolve(Number(String(d).trim())));
  });
}

test.if(linux)("a group of zombies is not alive, and reaping it does not wait", async () => {
  const pgid = await groupOf("zombie");
  // the kernel still answers for it...
  expect(() => process.kill(-pgid, 0)).not.toThrow();
  // ...but nothing in it runs
  expect(groupHasLiveMember(pgid)).toBe(false);
  expect(groupAlive(pgid)).toBe(false);
  // a grace longer than the test may last: reaping returns at once or the test fails
  expect(await reapGroup(pgid, 600_000)).toBe(false);
});

test.if(linux)("a group with a running member is alive until it is stopped", async () => {
  const pgid = await groupOf("live");
  expect(groupHasLiveMember(pgid)).toBe(true);
  expect(groupAlive(pgid)).toBe(true);
  expect(await reapGroup(pgid, 2000)).toBe(false); // SIGTERM was enough
  expect(groupAlive(pgid)).toBe(false);
});
