import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { runAsync } from "../../src/platform/run-async.ts";
import { processAlive, tempDir } from "../helpers/tmp.ts";

test("a large output comes back byte for byte, stderr apart, with the exit status", async () => {
  const cwd = tempDir("cpilot-run-async-");
  // 3 MB with every byte value, well past a pipe's buffer, and a byte that is not UTF-8
  const script =
    "import sys\nsys.stdout.buffer.write(bytes(range(256)) * 12288)\nsys.stderr.write('said\\n')\nsys.exit(3)\n";
  const r = await runAsync("python3", ["-c", script], { cwd, timeoutMs: 60_000 });
  const expected = new Uint8Array(256 * 12288);
  for (let i = 0; i < expected.length; i++) expected[i] = i % 256;
  expect(r.status).toBe(3);
  expect(r.stdout.length).toBe(expected.length);
  expect(Buffer.from(r.stdout).equals(Buffer.from(expected))).toBe(true);
  expect(Buffer.from(r.stderr).toString()).toBe("said\n");
  expect([r.error, r.timedOut]).toEqual([null, false]);
});

test("a command that is not there says ENOENT and never throws", async () => {
  const cwd = tempDir("cpilot-run-async-");
  const r = await runAsync("cpilot-no-such-command", [], { cwd });
  expect([r.status, r.error]).toEqual([null, "ENOENT"]);
});

test("past its timeout the process is killed, even when a grandchild holds its pipes", async () => {
  const cwd = tempDir("cpilot-run-async-");
  const r = await runAsync("sh", ["-c", "sleep 30 & echo $! > grandchild; exec sleep 30"], {
    cwd,
    timeoutMs: 300,
  });
  expect([r.status, r.timedOut]).toEqual([null, true]);
  // the grandchild still holds the pipes: it was not waited for
  const grandchild = Number(readFileSync(join(cwd, "grandchild"), "utf8"));
  expect(processAlive(grandchild)).toBe(true);
  process.kill(grandchild, "SIGKILL");
});
