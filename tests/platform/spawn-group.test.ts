import { expect, test } from "bun:test";
import { chmodSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { RunOutput } from "../../src/platform/run-output.ts";
import { spawnGroup } from "../../src/platform/spawn-group.ts";
import { processAlive, tempDir, waitFor } from "../helpers/tmp.ts";

function run(
  script: string,
  timeoutMs: number,
  dir = tempDir(),
  signal = new AbortController().signal,
  marker?: string,
) {
  const output = new RunOutput(join(dir, "out.log"));
  const [name = "", value = ""] = marker?.split("=") ?? [];
  const done = spawnGroup({
    command: "bash",
    args: ["-c", script],
    cwd: dir,
    env: marker === undefined ? process.env : { ...process.env, [name]: value },
    ...(marker === undefined ? {} : { marker }),
    stdin: "",
    timeoutMs,
    signal,
    output,
    graceMs: 300,
  });
  return { dir, output, done };
}

/** The pid written in `path`, or 0 while there is none. */
function pidIn(path: string): number {
  try {
    return Number(readFileSync(path, "utf8")) || 0;
  } catch {
    return 0;
  }
}

/**
 * Run `script` until its timeout, which has to come after the script wrote the pid in
 * `pidFile`: a machine too busy to get there in time tries again with a longer timeout, so
 * the test never hangs on how fast the script starts.
 */
async function timedOutAfterPid(dir: string, script: string, pidFile: string) {
  for (const timeoutMs of [400, 2000, 10_000]) {
    rmSync(join(dir, pidFile), { force: true });
    const { done, output } = run(script, timeoutMs, dir);
    const result = await done;
    output.close();
    const pid = pidIn(join(dir, pidFile));
    if (pid > 0) return { result, pid };
  }
  throw new Error(`the script never wrote ${pidFile}`);
}

test("a timeout kills the whole process group, grandchildren included", async () => {
  const dir = tempDir();
  const script = `(sleep 30 & echo $! > "${dir}/grandchild.pid"; wait) ; echo never`;
  const { result, pid: grandchild } = await timedOutAfterPid(dir, script, "grandchild.pid");
  expect(result.timedOut).toBe(true);
  expect(await waitFor(() => !processAlive(grandchild), 20_000)).toBe(true);
});

test("a grandchild that ignores SIGTERM gets SIGKILL after the grace period", async () => {
  const dir = tempDir();
  // the pid is written once SIGTERM is ignored
  const script = `bash -c 'trap "" TERM; echo $$ > "${dir}/deaf.pid"; while :; do sleep 0.05; done' & wait`;
  const { result, pid: deaf } = await timedOutAfterPid(dir, script, "deaf.pid");
  expect(result.timedOut).toBe(true);
  expect(result.killed).toBe(true);
  expect(await waitFor(() => !processAlive(deaf), 20_000)).toBe(true);
});

test("what a run leaves in the background ends with it", async () => {
  const dir = tempDir();
  const { done } = run(`sleep 30 & echo $! > "${dir}/left.pid"; exit 0`, 5000, dir);
  const result = await done;
  const left = Number(readFileSync(join(dir, "left.pid"), "utf8"));
  expect(result.exitCode).toBe(0);
  expect(await waitFor(() => !processAlive(left), 20_000)).toBe(true);
});

// While a process is inside execve, /proc shows it an empty environment (the new program's
// is not laid out yet). A process that execs itself for ever is nearly always there or about
// to be: one of these looks is bound to land in the gap, as a busy machine makes it for any exec.
test("a setsid process caught inside an exec still ends with its run", async () => {
  const dir = tempDir();
  const again = join(dir, "again.sh");
  writeFileSync(again, `#!/bin/sh\nexec "${again}"\n`);
  chmodSync(again, 0o755);
  const left: number[] = [];
  try {
    for (let i = 0; i < 20; i++) {
      const script = `setsid "${again}" </dev/null >/dev/null 2>&1 & echo $! > "${dir}/e.pid"; sleep 0.2; exit 0`;
      const { done, output } = run(script, 10_000, dir, undefined, `CP_RUN_ID=exec-${i}`);
      await done;
      output.close();
      const escaped = Number(readFileSync(join(dir, "e.pid"), "utf8"));
      left.push(escaped);
      expect(await waitFor(() => !processAlive(escaped), 20_000)).toBe(true);
    }
  } finally {
    for (const pid of left) if (processAlive(pid)) process.kill(pid, "SIGKILL");
  }
}, 60_000);

test("aborting stops the group and reports it as aborted", async () => {
  const controller = new AbortController();
  const dir = tempDir();
  const { done } = run(`sleep 30 & echo $! > "${dir}/c.pid"; wait`, 30_000, dir, controller.signal);
  expect(await waitFor(() => pidIn(join(dir, "c.pid")) > 0, 30_000)).toBe(true);
  controller.abort();
  const result = await done;
  expect(result.aborted).toBe(true);
  expect(
    await waitFor(() => !processAlive(Number(readFileSync(join(dir, "c.pid"), "utf8"))), 20_000),
  ).toBe(true);
});

test("huge output goes to the log while memory keeps only a bounded tail", async () => {
  const before = process.memoryUsage().rss;
  // 200 MB: 2 million lines of 100 bytes, then one 5 MB line without a newline.
  const { done, output, dir } = run(
    `yes "$(printf 'x%.0s' {1..99})" | head -n 2000000; head -c 5000000 /dev/zero | tr '\\0' y`,
    60_000,
  );
  const result = await done;
  output.close();
  expect(result.exitCode).toBe(0);
  expect(statSync(join(dir, "out.log")).size).toBe(2_000_000 * 100 + 5_000_000);
  const tail = output.tail();
  expect(tail.length).toBeLessThanOrEqual(200);
  expect(tail.at(-1)?.length).toBeLessThanOrEqual(2000);
  expect(tail.at(-2)).toBe("x".repeat(99));
  expect(process.memoryUsage().rss - before).toBeLessThan(150 * 1024 * 1024);
});

test("a command that does not exist is reported, not thrown", async () => {
  const dir = tempDir();
  const output = new RunOutput(join(dir, "o.log"));
  const result = await spawnGroup({
    command: "definitely-not-a-command-xyz",
    args: [],
    cwd: dir,
    env: process.env,
    stdin: "",
    timeoutMs: 5000,
    signal: new AbortController().signal,
    output,
  });
  expect(result.spawnError).toContain("ENOENT");
});

test("a run nobody listens to line by line writes its log itself; a listened-to run is piped", async () => {
  const script = 'readlink "/proc/$$/fd/1"; readlink "/proc/$$/fd/2" >&2';
  const direct = run(script, 10_000);
  await direct.done;
  direct.output.close();
  const log = join(direct.dir, "out.log");
  expect(direct.output.tail()).toEqual([log, log]);

  const dir = tempDir();
  const heard: string[] = [];
  const output = new RunOutput(join(dir, "out.log"), (line) => heard.push(line));
  await spawnGroup({
    command: "bash",
    args: ["-c", script],
    cwd: dir,
    env: process.env,
    stdin: "",
    timeoutMs: 10_000,
    signal: new AbortController().signal,
    output,
  });
  output.close();
  expect(heard).toHaveLength(2);
  // a pipe (Bun uses a socket pair), never the log file
  for (const line of heard) expect(line).toMatch(/^(pipe|socket):\[/);
  expect(readFileSync(join(dir, "out.log"), "utf8").trim().split("\n")).toHaveLength(2);
});
