/**
 * More attacks on the MCP file tools and context updates, against the compiled binary, that
 * held when tried: kept so they keep holding. A hard link to an outside file, FIFOs and
 * devices as targets, links into /proc, a planted context lock, and many calls at once.
 */
import { afterEach, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import {
  linkSync,
  lstatSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { cpilot } from "../helpers/binary.ts";
import { tempDir, writeFiles } from "../helpers/tmp.ts";
import { project, startMcp } from "../mcp/_client.ts";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

test("write_file and edit_file to a hard link of an outside file replace the link, never the outside file", async () => {
  const proj = project(null, {});
  cleanups.push(proj.remove);
  const outside = tempDir("cpilot-attack-outside-");
  writeFileSync(join(outside, "victim.txt"), "outside original\n");
  linkSync(join(outside, "victim.txt"), join(proj.dir, "hard.txt"));
  linkSync(join(outside, "victim.txt"), join(proj.dir, "hard2.txt"));
  const mcp = await startMcp(proj.dir, { args: ["--batch-window", "0"] });
  cleanups.push(() => void mcp.close());
  expect((await mcp.call("write_file", { path: "hard.txt", content: "agent\n" })).isError).toBe(
    false,
  );
  const edit = await mcp.call("edit_file", {
    path: "hard2.txt",
    old_string: "original",
    new_string: "EDITED",
  });
  expect(edit.isError).toBe(false);
  expect(readFileSync(join(outside, "victim.txt"), "utf8")).toBe("outside original\n");
  expect(statSync(join(outside, "victim.txt")).nlink).toBe(1);
  expect(readFileSync(join(proj.dir, "hard.txt"), "utf8")).toBe("agent\n");
  expect(readFileSync(join(proj.dir, "hard2.txt"), "utf8")).toBe("outside EDITED\n");
}, 60_000);

test("FIFOs, devices and /proc links: refused at once, nothing hangs, nothing outside is touched", async () => {
  const proj = project(null, { ".env": "SECRET=1\n" });
  cleanups.push(proj.remove);
  execFileSync("mkfifo", [join(proj.dir, "fifo.txt")]);
  const links: Record<string, string> = {
    "proc-env.txt": "/proc/self/cwd/.env", // the server's own cwd is the project
    "root-env.txt": `/proc/self/root${proj.dir}/.env`,
    "environ.txt": "/proc/self/environ",
    "stdin.txt": "/proc/self/fd/0", // the MCP pipe itself
    "zero.txt": "/dev/zero",
    "null.txt": "/dev/null",
  };
  for (const [name, to] of Object.entries(links)) symlinkSync(to, join(proj.dir, name));
  const mcp = await startMcp(proj.dir, { args: ["--batch-window", "0"] });
  cleanups.push(() => void mcp.close());
  for (const path of ["fifo.txt", ...Object.keys(links)]) {
    const read = await mcp.call("read_file", { path });
    expect(read.isError).toBe(true);
    expect(read.text).not.toContain("SECRET");
  }
  for (const path of ["fifo.txt", ...Object.keys(links).filter((n) => !n.endsWith("env.txt"))]) {
    expect((await mcp.call("write_file", { path, content: "agent\n" })).isError).toBe(true);
    const edit = await mcp.call("edit_file", { path, old_string: "a", new_string: "b" });
    expect(edit.isError).toBe(true);
  }
  expect(lstatSync(join(proj.dir, "fifo.txt")).isFIFO()).toBe(true);
  for (const [name, to] of Object.entries(links)) {
    expect(lstatSync(join(proj.dir, name)).isSymbolicLink()).toBe(true);
    expect(execFileSync("readlink", [join(proj.dir, name)], { encoding: "utf8" }).trim()).toBe(to);
  }
}, 60_000);

test("200 small MCP calls at once are all answered, none lost", async () => {
  const proj = project(null, {});
  cleanups.push(proj.remove);
  const mcp = await startMcp(proj.dir, { args: ["--batch-window", "0"] });
  cleanups.push(() => void mcp.close());
  const replies = await Promise.all(
    Array.from({ length: 200 }, (_, i) =>
      mcp.call("write_file", { path: `m/f${i}.txt`, content: `${i}\n` }),
    ),
  );
  expect(replies.filter((r) => r.isError)).toEqual([]);
  expect(readdirSync(join(proj.dir, "m")).length).toBe(200);
  for (let i = 0; i < 200; i += 37) {
    expect(readFileSync(join(proj.dir, "m", `f${i}.txt`), "utf8")).toBe(`${i}\n`);
  }
}, 120_000);

test("a planted context lock: a link to a system file is broken without touching it; a live pid's reused number does not hold it", () => {
  const dir = tempDir("cpilot-attack-ctx-", { git: true });
  writeFiles(dir, { ".context/TASKS.md": "# Tasks\n\n## Todo\n\n- [ ] first\n" });
  const outside = tempDir("cpilot-attack-outside-");
  writeFileSync(join(outside, "passwd"), "root:x:0:0\n");
  const lock = join(dir, ".context", ".cpilot-context.lock");
  const update = (n: number) =>
    `<context-update file="TASKS.md" action="add" section="Todo">\n- [ ] task ${n}\n</context-update>\n`;
  symlinkSync(join(outside, "passwd"), lock);
  const one = cpilot(["context", "apply", "-"], { cwd: dir, input: update(1) });
  expect(one.code).toBe(0);
  expect(readFileSync(join(outside, "passwd"), "utf8")).toBe("root:x:0:0\n");
  // pid 1 lives, but it did not start at tick 5: not the holder the lock names
  symlinkSync(JSON.stringify({ pid: 1, started: 5 }), lock);
  const two = cpilot(["context", "apply", "-"], { cwd: dir, input: update(2) });
  expect(two.code).toBe(0);
  const text = readFileSync(join(dir, ".context/TASKS.md"), "utf8");
  expect(text).toContain("- [ ] task 1\n");
  expect(text).toContain("- [ ] task 2\n");
  expect(readdirSync(join(dir, ".context"))).toEqual(["TASKS.md"]);
}, 60_000);
