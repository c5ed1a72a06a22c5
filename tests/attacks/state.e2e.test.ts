// Attacks on cpilot's state folder, through the compiled binary: whatever is done to
// `.cpilot/`, a failing callback's result reaches the agent in the same reply, with a
// note that state could not be saved, and nothing is written outside the project.
import { afterEach, expect, test } from "bun:test";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { contextOf, makeProject, postBatch } from "../agents/claude/_helpers.ts";
import { tempDir } from "../helpers/tmp.ts";

const CLAUDE = { AI_AGENT: "claude-code_2-1-330_cli" };
const mounts: string[] = [];
afterEach(() => {
  for (const m of mounts.splice(0)) spawnSync("umount", ["-l", m]);
});

/** Mount a tmpfs (root on Linux only); false where this machine cannot. */
function mountTmpfs(dir: string, options: string): boolean {
  const r = spawnSync("mount", ["-t", "tmpfs", "-o", options, "tmpfs", dir]);
  if (r.status !== 0) return false;
  mounts.push(dir);
  return true;
}

const canMount = (() => {
  const probe = tempDir("cpilot-mount-probe-");
  if (spawnSync("mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", probe]).status !== 0) {
    return false;
  }
  execFileSync("umount", [probe]);
  return true;
})();

function failingProject() {
  return makeProject(
    {
      callbacks: [
        { name: "lint", pattern: "*.txt", run: "echo LINT-SAYS-NO; exit 1", timeout: 30 },
      ],
    },
    { "a.txt": "a\n" },
  );
}

function expectDelivered(p: ReturnType<typeof failingProject>): string {
  const r = p.hook(postBatch([p.path("a.txt")]), CLAUDE);
  const text = contextOf(r.json);
  expect(text).toContain("✗ 'lint' failed on a.txt");
  expect(text).toContain("LINT-SAYS-NO");
  expect(text).toContain("state could not be saved in .cpilot/");
  expect(r.code).toBe(0);
  return text;
}

test(".cpilot as a file: the result still reaches the agent", () => {
  const p = failingProject();
  writeFileSync(p.path(".cpilot"), "not a folder\n");
  expect(expectDelivered(p)).toContain("it is not a folder");
});

test(".cpilot as a FIFO: the result still reaches the agent, nothing waits on it", () => {
  const p = failingProject();
  execFileSync("mkfifo", [p.path(".cpilot")]);
  expect(expectDelivered(p)).toContain("it is not a folder");
});

test(".cpilot as a symlink leading out: refused, nothing written outside, result delivered", () => {
  const p = failingProject();
  const outside = tempDir("cpilot-outside-");
  // folders cpilot would use, already there: nothing may be written into them either
  const folders = ["runs", "running", "tmp", "locks", "sessions", "inbox"];
  for (const f of folders) mkdirSync(join(outside, f));
  symlinkSync(outside, p.path(".cpilot"));
  expect(expectDelivered(p)).toContain("it is a symlink");
  // the write gate's log is state too
  const gate = p.hook({
    hook_event_name: "PreToolUse",
    tool_name: "Write",
    tool_input: { file_path: p.path("b.txt"), content: "b" },
  });
  expect(gate.code).toBe(0);
  expect(readdirSync(outside).sort()).toEqual([...folders].sort());
  for (const f of folders) expect(readdirSync(join(outside, f))).toEqual([]);
});

test.skipIf(!canMount)(".cpilot read-only: the result still reaches the agent", () => {
  const p = failingProject();
  mkdirSync(p.path(".cpilot"));
  expect(mountTmpfs(p.path(".cpilot"), "size=64k,ro")).toBe(true);
  expect(expectDelivered(p)).toContain("EROFS");
});

test.skipIf(!canMount)(
  "a full disk under .cpilot: the result and its output still reach the agent",
  () => {
    const p = failingProject();
    mkdirSync(p.path(".cpilot"));
    expect(mountTmpfs(p.path(".cpilot"), "size=64k")).toBe(true);
    spawnSync("dd", [
      "if=/dev/zero",
      `of=${join(p.path(".cpilot"), "fill")}`,
      "bs=4k",
      "count=100",
    ]);
    expect(expectDelivered(p)).toContain("ENOSPC");
  },
);
