// Attacks on how cpilot runs callbacks, through the compiled binary: locks, hosts that die,
// processes that escape their group, state that cannot be written.
import { expect, test } from "bun:test";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { processAlive, waitFor } from "../helpers/tmp.ts";
import { attackProject, run, spawnBinary } from "./_helpers.ts";

// A run takes a marker folder for its whole life; mkdir fails while another run holds it.
const EXCLUSIVE = `if ! mkdir held 2>/dev/null; then echo "$CP_RUN_ID" >> overlaps; exit 0; fi
echo x >> starts; sleep 0.3; rmdir held`;

test("20 parallel checks of a queued callback never run it twice at once", async () => {
  const dir = attackProject(
    [{ name: "q", pattern: "*.txt", run: EXCLUSIVE, overlap: "queue", timeout: 120 }],
    { "a.txt": "a\n" },
  );
  const calls = Array.from({ length: 20 }, () => run(dir, ["check", "a.txt"]));
  const results = await Promise.all(calls);
  for (const r of results) expect(r.code).toBe(0);
  expect(existsSync(join(dir, "overlaps")) ? readFileSync(join(dir, "overlaps"), "utf8") : "").toBe(
    "",
  );
  expect(readFileSync(join(dir, "starts"), "utf8").trim().split("\n")).toHaveLength(20);
}, 240_000);

test("20 parallel agent hook calls never run a queued callback twice at once", async () => {
  const dir = attackProject(
    [{ name: "q", pattern: "*.txt", run: EXCLUSIVE, overlap: "queue", timeout: 120 }],
    { "a.txt": "a\n" },
  );
  const payload = (i: number) =>
    JSON.stringify({
      session_id: `s${i}`,
      cwd: dir,
      hook_event_name: "PostToolUse",
      tool_name: "Write",
      tool_input: { file_path: join(dir, "a.txt"), content: "a" },
      tool_response: { type: "update", filePath: join(dir, "a.txt") },
      tool_use_id: `toolu_${i}`,
    });
  const calls = Array.from({ length: 20 }, (_, i) => run(dir, ["hook", "claude"], payload(i)));
  for (const r of await Promise.all(calls)) expect(r.code).toBe(0);
  expect(existsSync(join(dir, "overlaps")) ? readFileSync(join(dir, "overlaps"), "utf8") : "").toBe(
    "",
  );
  expect(readFileSync(join(dir, "starts"), "utf8").trim().split("\n")).toHaveLength(20);
}, 240_000);

test("a run whose host was SIGKILLed is stopped before the next run of its callback starts", async () => {
  // The first run holds `held` until it ends or is stopped (SIGTERM: it lets go and says so).
  const script = `if ! mkdir held 2>/dev/null; then echo "$CP_RUN_ID" >> overlaps; exit 0; fi
trap 'echo stopped >> ends; rmdir held; exit 143' TERM
if [ -e slow ]; then rm slow; echo "$$" > leader; sleep 60 & wait; fi
rmdir held; echo ended >> ends`;
  const dir = attackProject(
    [{ name: "q", pattern: "*.txt", run: script, overlap: "queue", timeout: 120 }],
    { "a.txt": "a\n", slow: "" },
  );
  const first = spawnBinary(dir, ["check", "a.txt"]);
  expect(await waitFor(() => existsSync(join(dir, "leader")), 60_000)).toBe(true);
  first.kill("SIGKILL"); // the host only: the run is in a process group of its own
  await new Promise((r) => first.on("close", r));
  const leader = Number(readFileSync(join(dir, "leader"), "utf8"));
  expect(processAlive(leader)).toBe(true); // nothing stopped it yet
  const second = await run(dir, ["check", "a.txt"]);
  expect(existsSync(join(dir, "overlaps")) ? readFileSync(join(dir, "overlaps"), "utf8") : "").toBe(
    "",
  );
  expect(readFileSync(join(dir, "ends"), "utf8")).toBe("stopped\nended\n");
  expect(processAlive(leader)).toBe(false);
  expect(second.code).toBe(0);
}, 240_000);

/** The pid a callback wrote to `file` once it is there. */
async function pidIn(dir: string, file: string): Promise<number> {
  expect(
    await waitFor(
      () => existsSync(join(dir, file)) && readFileSync(join(dir, file), "utf8").endsWith("\n"),
      60_000,
    ),
  ).toBe(true);
  return Number(readFileSync(join(dir, file), "utf8"));
}

// `setsid` leaves the run's process group (and session): only the process tree finds it.
const ESCAPE = `setsid sleep 300 < /dev/null > /dev/null 2>&1 & echo $! > escaped.tmp; mv escaped.tmp escaped`;

test("a setsid grandchild does not outlive its run when the run ends", async () => {
  const dir = attackProject(
    [{ name: "esc", pattern: "*.txt", run: `${ESCAPE}; exit 0`, timeout: 60 }],
    { "a.txt": "a\n" },
  );
  const r = await run(dir, ["check", "a.txt"]);
  expect(r.code).toBe(0);
  const escaped = await pidIn(dir, "escaped");
  expect(await waitFor(() => !processAlive(escaped), 20_000)).toBe(true);
}, 120_000);

test("a setsid grandchild does not outlive its run's timeout", async () => {
  // The timeout has to come after the run made its escapee: a machine too busy to get there
  // in time tries again with a longer one.
  for (const timeout of [1, 5, 20]) {
    const dir = attackProject(
      [{ name: "esc", pattern: "*.txt", run: `${ESCAPE}; sleep 300`, timeout }],
      { "a.txt": "a\n" },
    );
    const r = await run(dir, ["check", "a.txt"]);
    expect(r.code).toBe(1);
    if (!existsSync(join(dir, "escaped"))) continue;
    const escaped = await pidIn(dir, "escaped");
    expect(await waitFor(() => !processAlive(escaped), 20_000)).toBe(true);
    return;
  }
  throw new Error("the run never made its escapee");
}, 120_000);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  test(`a setsid grandchild does not outlive ${signal} to cpilot`, async () => {
    const dir = attackProject(
      [{ name: "esc", pattern: "*.txt", run: `${ESCAPE}; sleep 300`, timeout: 600 }],
      { "a.txt": "a\n" },
    );
    const host = spawnBinary(dir, ["check", "a.txt"]);
    const closed = new Promise((r) => host.on("close", r));
    const escaped = await pidIn(dir, "escaped");
    host.kill(signal);
    await closed;
    expect(await waitFor(() => !processAlive(escaped), 20_000)).toBe(true);
  }, 120_000);
}

test("a gate plugin's setsid child does not outlive the plugin (pre-write hook)", async () => {
  const dir = attackProject([], {
    "plugin.sh": `#!/bin/sh\nsetsid sleep 300 </dev/null >/dev/null 2>&1 &\necho $! > escaped.tmp; mv escaped.tmp escaped\necho '{"decision":"allow"}'\n`,
  });
  chmodSync(join(dir, "plugin.sh"), 0o755);
  const config = JSON.parse(readFileSync(join(dir, "callbacks.config.json"), "utf8"));
  config.gate = { plugins: [{ command: ["./plugin.sh"], name: "escaper" }] };
  writeFileSync(join(dir, "callbacks.config.json"), JSON.stringify(config));
  const payload = JSON.stringify({
    session_id: "s1",
    cwd: dir,
    hook_event_name: "PreToolUse",
    tool_name: "Write",
    tool_input: { file_path: join(dir, "a.txt"), content: "a" },
    tool_use_id: "toolu_1",
  });
  const r = await run(dir, ["hook", "claude"], payload);
  expect(r.code).toBe(0);
  const escaped = await pidIn(dir, "escaped");
  const gone = await waitFor(() => !processAlive(escaped), 20_000);
  if (!gone) process.kill(escaped, "SIGKILL");
  expect(gone).toBe(true);
}, 120_000);
