import { afterEach, beforeEach, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { CLI_SCRIPT, runBun, tempDir, waitFor } from "./_helpers.ts";

let root: string;
let cleanup: () => void;
let ctx: string;

beforeEach(() => {
  ({ dir: root, cleanup } = tempDir("cpilot-context-cli-"));
  execFileSync("git", ["init", "-q"], { cwd: root });
  ctx = join(root, ".context");
  mkdirSync(ctx);
  mkdirSync(join(root, "sub"));
  writeFileSync(join(ctx, "TASKS.md"), "# Tasks\n\n- [ ] Write parser\n- [ ] Write tests\n");
});
afterEach(() => cleanup());

const cli = (args: string[], options: { cwd?: string; stdin?: string } = {}) =>
  runBun(CLI_SCRIPT, ["apply", ...args], {
    cwd: options.cwd ?? join(root, "sub"),
    ...(options.stdin === undefined ? {} : { stdin: options.stdin }),
  });
const tasks = () => readFileSync(join(ctx, "TASKS.md"), "utf8");
const complete = (id: string) => `<context-update file="TASKS.md" action="complete" id="${id}"/>\n`;

test("applies a file's blocks to .context/ at the git top-level, exit 0", async () => {
  writeFileSync(join(root, "sub/reply.txt"), `Done.\n${complete("Write parser")}`);
  const run = await cli(["reply.txt"]);
  expect(run.code).toBe(0);
  expect(run.stdout).toBe("");
  expect(run.stderr).toContain("context updates: 1 applied");
  expect(tasks()).toBe("# Tasks\n\n- [x] Write parser\n- [ ] Write tests\n");
});

test("reads stdin with - or no FILE", async () => {
  expect((await cli(["-"], { stdin: complete("Write parser") })).code).toBe(0);
  expect((await cli([], { stdin: complete("Write tests") })).code).toBe(0);
  expect(tasks()).toBe("# Tasks\n\n- [x] Write parser\n- [x] Write tests\n");
});

test("--dry-run prints a unified diff and writes nothing; --json is one document on stdout", async () => {
  const run = await cli(["--dry-run", "--json"], { stdin: complete("Write tests") });
  expect(run.code).toBe(0);
  expect(run.stderr).toContain("--- a/TASKS.md\n+++ b/TASKS.md\n");
  expect(run.stderr).toContain("+- [x] Write tests");
  const doc = JSON.parse(run.stdout);
  expect(doc).toMatchObject({ ok: true, dryRun: true, contextDir: ctx, parseErrors: [] });
  expect(doc.results[0]).toMatchObject({ file: "TASKS.md", action: "complete", ok: true });
  expect(tasks()).toBe("# Tasks\n\n- [ ] Write parser\n- [ ] Write tests\n");
});

test("exit 1 when a block fails or cannot be parsed; the rest still applies", async () => {
  const input = `${complete("Nope")}${complete("Write tests")}<context-update file="TASKS.md" action="add">\n`;
  const run = await cli(["--json"], { stdin: input });
  expect(run.code).toBe(1);
  const doc = JSON.parse(run.stdout);
  expect(doc.ok).toBe(false);
  expect(doc.results.map((r: { ok: boolean }) => r.ok)).toEqual([false, true]);
  expect(doc.parseErrors[0].line).toBe(3);
  expect(run.stderr).toContain('FAILED: complete TASKS.md "Nope"');
  expect(tasks()).toContain("- [x] Write tests");
});

test("usage errors exit 2", async () => {
  for (const args of [
    ["--nope"],
    ["frobnicate"],
    ["--follow"],
    ["--follow", "-"],
    ["missing.txt"],
    ["a", "b"],
  ]) {
    const run = await runBun(CLI_SCRIPT, args[0] === "frobnicate" ? args : ["apply", ...args], {
      cwd: root,
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toStartWith("error: ");
  }
  expect((await runBun(CLI_SCRIPT, [], { cwd: root })).code).toBe(2);
});

test("--dir picks another context directory; --backup keeps FILE.md.bak", async () => {
  mkdirSync(join(root, "sub/mem"));
  writeFileSync(join(root, "sub/mem/T.md"), "- [ ] a\n");
  const run = await cli(["--dir", "mem", "--backup"], {
    stdin: '<context-update file="T.md" action="complete" id="a"/>',
  });
  expect(run.code).toBe(0);
  expect(readFileSync(join(root, "sub/mem/T.md"), "utf8")).toBe("- [x] a\n");
  expect(readFileSync(join(root, "sub/mem/T.md.bak"), "utf8")).toBe("- [ ] a\n");
});

test("outside a git repo the context directory is under the cwd", async () => {
  const other = tempDir("cpilot-context-nogit-");
  try {
    const run = await runBun(CLI_SCRIPT, ["apply"], {
      cwd: other.dir,
      stdin: '<context-update file="N.md" action="add">hello</context-update>',
    });
    expect(run.code).toBe(0);
    expect(readFileSync(join(other.dir, ".context/N.md"), "utf8")).toBe("hello\n");
  } finally {
    other.cleanup();
  }
});

test("--follow applies blocks as they close, each once, until SIGINT", async () => {
  const log = join(root, "agent.log");
  writeFileSync(log, `starting\n${complete("Write parser")}`);
  const run = cli(["agent.log", "--follow", "--json"], { cwd: root });
  await waitFor(() => tasks().includes("- [x] Write parser"));
  appendFileSync(log, 'thinking...\n<context-update file="TASKS.md"\n  action="add"');
  await Bun.sleep(300);
  appendFileSync(log, ' section="Tasks">\n- [ ] Write docs <with> `code`\n');
  await Bun.sleep(300);
  expect(tasks()).not.toContain("Write docs");
  appendFileSync(log, "</context-update>\nmore output\n");
  await waitFor(() => tasks().includes("- [ ] Write docs <with> `code`"));
  appendFileSync(log, complete("Write docs"));
  await waitFor(() => tasks().includes("- [x] Write docs"));
  await Bun.sleep(300);
  run.child.kill("SIGINT");
  const done = await run;
  expect(done.code).toBe(0);
  expect(done.stderr).toContain("stopped following (interrupted)");
  const doc = JSON.parse(done.stdout);
  expect(doc.results.map((r: { action: string; line: number }) => [r.action, r.line])).toEqual([
    ["complete", 2],
    ["add", 4],
    ["complete", 9],
  ]);
  expect(tasks()).toBe(
    "# Tasks\n\n- [x] Write parser\n- [ ] Write tests\n- [x] Write docs <with> `code`\n",
  );
});

test("--follow stops when the file is removed, reporting a block left open", async () => {
  const log = join(root, "agent.log");
  writeFileSync(
    log,
    '<context-update file="TASKS.md" action="add">\n- [ ] read first\n</context-update>\n<context-update file="TASKS.md" action="add">\nhalf',
  );
  const run = cli(["agent.log", "--follow"], { cwd: root });
  // the first block applied: the follower has the file (removed sooner, it never starts)
  await waitFor(() => tasks().includes("- [ ] read first"), 30_000);
  rmSync(log);
  const done = await run;
  expect(done.code).toBe(1);
  expect(done.stderr).toContain("block at line 4: <context-update> is never closed");
  expect(done.stderr).toContain("stopped following (the file was removed)");
  expect(existsSync(join(ctx, "TASKS.md.bak"))).toBe(false);
});

test("--follow-idle-exit stops after a quiet period", async () => {
  const log = join(root, "agent.log");
  writeFileSync(log, complete("Write tests"));
  // without the idle exit, following would outlast the test
  const done = await cli(["agent.log", "--follow", "--follow-idle-exit", "0.5"], { cwd: root });
  expect(done.code).toBe(0);
  expect(done.stderr).toContain("stopped following (no growth)");
  expect(tasks()).toContain("- [x] Write tests");
});
