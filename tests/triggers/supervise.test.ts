import { afterEach, expect, test } from "bun:test";
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  listRunning,
  registerRunning,
  runningDir,
  stopSessionRuns,
} from "../../src/engine/running.ts";
import { processAlive, waitFor, writeFiles } from "../helpers/tmp.ts";
import { batch, cb, cli, engine, project, startRunner } from "./_helpers.ts";

/** A long-running server: a leader and a grandchild, both pids written down. */
function server(root: string, tag: string): string {
  return `sleep 60 & echo $! > "${root}/${tag}.gc"; echo $$ > "${root}/${tag}.pid"; echo up; wait`;
}

const pidOf = (root: string, file: string): number =>
  Number(readFileSync(join(root, file), "utf8"));

/**
 * Both pids of a server written down: a file exists before `echo` fills it, and the
 * leader's is written after the grandchild's, so waiting for one file is not enough.
 */
function up(root: string, tag: string): boolean {
  return [`${tag}.gc`, `${tag}.pid`].every((file) => {
    try {
      return readFileSync(join(root, file), "utf8").trim() !== "";
    } catch {
      return false;
    }
  });
}
const cleanup: (() => void)[] = [];
afterEach(() => {
  for (const fn of cleanup.splice(0)) fn();
});

function killLater(child: ChildProcess): void {
  cleanup.push(() => {
    try {
      child.kill("SIGKILL");
    } catch {
      // already gone
    }
  });
}

test("cpilot ps lists real runs and cpilot stop stops one, grandchildren included", async () => {
  const root = project();
  writeFiles(root, { "callbacks.config.json": '{ "callbacks": [] }' });
  const config = {
    callbacks: [
      cb("dev", server(root, "dev"), { blocking: false, timeout: 120 }),
      cb("watch", server(root, "watch"), { blocking: false, timeout: 120, overlap: "parallel" }),
    ],
  };
  const runner = startRunner({ root, config, files: ["a.txt"], session: "s1" });
  killLater(runner.child);
  expect(await waitFor(() => up(root, "dev") && up(root, "watch"), 30_000)).toBe(true);

  const ps = await cli(root, ["ps", "--json"]);
  expect(ps.code).toBe(0);
  const listed = JSON.parse(ps.out).running as {
    runId: string;
    callback: string;
    pid: number;
    session: string;
    command: string;
  }[];
  expect(listed.map((r) => r.callback).sort()).toEqual(["dev", "watch"]);
  const dev = listed.find((r) => r.callback === "dev");
  expect(dev?.pid).toBe(pidOf(root, "dev.pid"));
  expect(dev?.session).toBe("s1");
  expect(dev?.command).toContain("sleep 60");
  const table = await cli(root, ["ps"]);
  expect(table.out).toContain("callback");
  expect(table.out).toContain(dev?.runId as string);

  const stop = await cli(root, ["stop", dev?.runId as string]);
  expect(stop.code).toBe(0);
  expect(stop.err).toContain(`stopped run ${dev?.runId}`);
  expect(processAlive(pidOf(root, "dev.pid"))).toBe(false);
  expect(await waitFor(() => !processAlive(pidOf(root, "dev.gc")), 30_000)).toBe(true);
  expect(processAlive(pidOf(root, "watch.gc"))).toBe(true);
  expect(listRunning(root).map((r) => r.callback)).toEqual(["watch"]);

  const unknown = await cli(root, ["stop", "nope"]);
  expect(unknown.code).toBe(2);
  expect(unknown.err).toContain('Cannot stop run "nope": it is not running');

  await cli(root, ["stop", "--all"]);
  const { out } = await runner.done;
  const runs = JSON.parse(out).runs as { callback: string; status: string; summary: string }[];
  expect(runs.find((r) => r.callback === "dev")).toMatchObject({
    status: "skipped",
    summary: "stopped: `cpilot stop`",
  });
  expect(await waitFor(() => !processAlive(pidOf(root, "watch.gc")), 30_000)).toBe(true);
  expect(listRunning(root)).toEqual([]);
});

test("a non-blocking run does not outlive its owner, even when the owner is SIGKILLed", async () => {
  const root = project();
  const config = {
    callbacks: [
      cb("dev", server(root, "dev"), { blocking: false, timeout: 120 }),
      cb("keep", server(root, "keep"), { blocking: false, timeout: 120, persist: true }),
    ],
  };
  const runner = startRunner({ root, config, files: ["a.txt"], session: "s1" });
  killLater(runner.child);
  expect(await waitFor(() => up(root, "dev") && up(root, "keep"), 30_000)).toBe(true);
  // the scripts can be up before a loaded host has written down their groups
  expect(await waitFor(() => listRunning(root).length === 2, 30_000)).toBe(true);
  runner.child.kill("SIGKILL");
  await runner.done;
  const leader = pidOf(root, "dev.pid");
  const grandchild = pidOf(root, "dev.gc");
  expect(await waitFor(() => !processAlive(leader) && !processAlive(grandchild), 30_000)).toBe(
    true,
  );
  // persist: true keeps going, and stays listed for `cpilot ps` / `cpilot stop`.
  expect(processAlive(pidOf(root, "keep.gc"))).toBe(true);
  expect(await waitFor(() => listRunning(root).length === 1, 30_000)).toBe(true);
  expect(listRunning(root)[0]?.callback).toBe("keep");
  cleanup.push(() => void stopSessionRuns(root, "s1", { includePersist: true, graceMs: 100 }));
});

test("a non-blocking run's setsid grandchild does not outlive a SIGKILLed owner either", async () => {
  const root = project();
  const escaper = `setsid sleep 60 </dev/null >/dev/null 2>&1 & echo $! > "${root}/esc.gc"; echo $$ > "${root}/esc.pid"; wait`;
  const config = { callbacks: [cb("esc", escaper, { blocking: false, timeout: 120 })] };
  const runner = startRunner({ root, config, files: ["a.txt"], session: "s1" });
  killLater(runner.child);
  expect(await waitFor(() => up(root, "esc"), 30_000)).toBe(true);
  expect(await waitFor(() => listRunning(root).length === 1, 30_000)).toBe(true);
  runner.child.kill("SIGKILL");
  await runner.done;
  const escaped = pidOf(root, "esc.gc");
  const stopped = await waitFor(() => !processAlive(escaped), 30_000);
  if (!stopped) process.kill(escaped, "SIGKILL");
  expect(stopped).toBe(true);
}, 60_000);

test("an explicit owner (the agent's pid) ends its runs when it exits; the host says why", async () => {
  const root = project();
  const owner = spawn("sleep", ["60"], { stdio: "ignore" });
  killLater(owner);
  const config = { callbacks: [cb("dev", server(root, "dev"), { blocking: false, timeout: 120 })] };
  const runner = startRunner({
    root,
    config,
    files: ["a.txt"],
    session: "s1",
    ownerPid: owner.pid,
  });
  killLater(runner.child);
  expect(await waitFor(() => up(root, "dev"), 30_000)).toBe(true);
  owner.kill("SIGKILL");
  const { out } = await runner.done;
  const [run] = JSON.parse(out).runs as { status: string; summary: string }[];
  expect(run).toMatchObject({ status: "skipped", summary: "stopped: its session ended" });
  expect(await waitFor(() => !processAlive(pidOf(root, "dev.gc")), 30_000)).toBe(true);
});

test("stopSessionRuns stops what one session started, and nothing else", async () => {
  const root = project();
  // Three runs at once: more slots than this machine's cores.
  const e = engine(root, {
    concurrency: 4,
    callbacks: [
      cb("dev", server(root, "dev"), { blocking: false, timeout: 120, overlap: "parallel" }),
      cb("keep", server(root, "keep"), {
        blocking: false,
        timeout: 120,
        persist: true,
        pattern: "*.md",
      }),
    ],
  });
  writeFiles(root, { "b.md": "x" });
  const s1 = e.run(batch(root, "s1"));
  expect(await waitFor(() => up(root, "dev"), 30_000)).toBe(true);
  const gc1 = pidOf(root, "dev.gc");
  const s2 = e.run({
    ...batch(root, "s2"),
    files: [
      { path: "a.txt", kind: "modified" },
      { path: "b.md", kind: "modified" },
    ],
  });
  expect(await waitFor(() => listRunning(root).length === 3, 30_000)).toBe(true);
  const before = listRunning(root);
  const stopped = await stopSessionRuns(root, "s1");
  expect(stopped.map((r) => [r.callback, r.session])).toEqual([["dev", "s1"]]);
  expect(await waitFor(() => !processAlive(gc1), 30_000)).toBe(true);
  const outcome1 = await s1;
  expect(outcome1.runs[0]?.summary).toBe("stopped: its session ended");
  const left = listRunning(root);
  expect(left.map((r) => r.session).sort()).toEqual(["s2", "s2"]);
  expect(before.filter((r) => r.session === "s2")).toHaveLength(2);
  // The session's end stops the s2 dev server; its persist run needs asking by name.
  expect((await stopSessionRuns(root, "s2", { graceMs: 200 })).map((r) => r.callback)).toEqual([
    "dev",
  ]);
  expect(listRunning(root).map((r) => r.callback)).toEqual(["keep"]);
  await stopSessionRuns(root, "s2", { includePersist: true, graceMs: 200 });
  await s2;
  expect(listRunning(root)).toEqual([]);
});

test("records of runs that died without cleanup are dropped when listed", () => {
  const root = project();
  const dead = spawn("true");
  registerRunning(root, {
    runId: "stale-1",
    callback: "ghost",
    pid: 2 ** 22 + 12345, // above pid_max: never a live process
    session: "s1",
    ownerPid: process.pid,
    hostPid: dead.pid ?? 1,
    startedAt: Date.now(),
    command: "sleep 1",
    blocking: false,
    persist: false,
    depth: 0,
  });
  writeFileSync(join(runningDir(root), "torn.json"), "{");
  expect(listRunning(root)).toEqual([]);
  expect(existsSync(join(runningDir(root), "stale-1.json"))).toBe(false);
});
