/**
 * An edit saved while `check --staged` runs (an agent, an editor) is never staged as a
 * callback's fix: the commit records what the checks read, and the edit stays in the
 * working tree. Each callback says when it runs (a file) and waits on a fifo, so the test
 * edits at exactly that point.
 */
import { expect, test } from "bun:test";
import { type ChildProcess, execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cpilot, cpilotBinary, pathWithCpilot, runtimeEnv } from "../helpers/binary.ts";
import { tempDir, waitFor, writeFiles } from "../helpers/tmp.ts";

const git = (cwd: string, ...args: string[]): string =>
  execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

/** A place for a callback to say it runs (`<name>.up`) and wait to be let go (`<name>.go`). */
function marks(...names: string[]): string {
  const dir = tempDir("cpilot-marks-");
  for (const name of names) execFileSync("mkfifo", [join(dir, `${name}.go`)]);
  return dir;
}

/** Shell that says `name` runs, then waits until the test lets it go. */
const pause = (dir: string, name: string): string =>
  `touch "${dir}/${name}.up"; read _ < "${dir}/${name}.go"`;

async function atPause(dir: string, name: string): Promise<void> {
  expect(await waitFor(() => existsSync(join(dir, `${name}.up`)), 30_000)).toBe(true);
}

/** Let the callback waiting at `name` go on (it is blocked reading the fifo). */
const letGo = (dir: string, name: string): void => writeFileSync(join(dir, `${name}.go`), "go\n");

function repo(callbacks: unknown[]): string {
  const root = tempDir("cpilot-attack-concurrent-", { git: true });
  writeFiles(root, {
    "callbacks.config.json": JSON.stringify({ callbacks }),
    ".gitignore": ".cpilot/\n",
    "a.txt": "a\n",
    "b.txt": "b\n",
  });
  git(root, "add", "-A");
  git(root, "commit", "-qm", "init");
  return root;
}

function startCheck(root: string): Promise<{ code: number | null; stderr: string }> {
  const { CI: _ci, ...env } = process.env;
  const child: ChildProcess = spawn(cpilotBinary(), ["check", "--staged"], {
    cwd: root,
    env: { ...env, PATH: "/usr/local/bin:/usr/bin:/bin", ...runtimeEnv() },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (d) => {
    stderr += String(d);
  });
  return new Promise((r) => child.on("close", (code) => r({ code, stderr })));
}

const read = (root: string, path: string): string => readFileSync(join(root, path), "utf8");
const UPPER = {
  name: "upper",
  pattern: "a.txt",
  timeout: 60,
  fixes: true,
  run: 'sed -i "s/.*/\\U&/" a.txt',
};

test("an edit that lands after the fixer ended: the commit gets the checked fix, the edit stays in the working tree", async () => {
  const m = marks("other");
  const root = repo([
    UPPER,
    // a reader of another file, still running after the fixer of a.txt has ended
    { name: "other", pattern: "b.txt", timeout: 60, after: ["upper"], run: pause(m, "other") },
  ]);
  writeFiles(root, { "a.txt": "staged\n", "b.txt": "b staged\n" });
  git(root, "add", "a.txt", "b.txt");
  const check = startCheck(root);
  await atPause(m, "other");
  expect(read(root, "a.txt")).toBe("STAGED\n"); // the fixer's work, read by no one else
  writeFiles(root, { "a.txt": "staged\nmy edit, saved during the check\n" });
  letGo(m, "other");
  const r = await check;
  expect(r.code, r.stderr).toBe(0);
  expect(git(root, "show", ":a.txt")).toBe("STAGED\n");
  expect(read(root, "a.txt")).toBe("staged\nmy edit, saved during the check\n");
  expect(git(root, "show", ":b.txt")).toBe("b staged\n");
  expect(r.stderr).toContain("a.txt changed while the check ran, after the callbacks had read it");
}, 60_000);

test("an edit saved while a checker reads the file: nothing of it is staged, the check fails, the edit stays whole", async () => {
  const m = marks("lint");
  const root = repo([
    UPPER,
    { name: "lint", pattern: "a.txt", timeout: 60, run: pause(m, "lint") },
  ]);
  writeFiles(root, { "a.txt": "staged\n" });
  git(root, "add", "a.txt");
  const check = startCheck(root);
  await atPause(m, "lint");
  writeFiles(root, { "a.txt": "staged\nmy edit\n" });
  letGo(m, "lint");
  const r = await check;
  expect(r.code, r.stderr).toBe(1);
  // the index holds what the person staged, the working tree their edit
  expect(git(root, "show", ":a.txt")).toBe("staged\n");
  expect(read(root, "a.txt")).toBe("staged\nmy edit\n");
  expect(r.stderr).toContain(
    `Cannot tell what the callbacks checked of "a.txt": it changed during the run of 'lint'`,
  );
}, 60_000);

test("no fixer at all: an edit saved during the check is not staged", async () => {
  const m = marks("lint");
  const root = repo([{ name: "lint", pattern: "*.txt", timeout: 60, run: pause(m, "lint") }]);
  writeFiles(root, { "a.txt": "staged\n" });
  git(root, "add", "a.txt");
  const check = startCheck(root);
  await atPause(m, "lint");
  writeFiles(root, { "a.txt": "edited during the check\n" });
  letGo(m, "lint");
  const r = await check;
  expect(r.code, r.stderr).toBe(1);
  expect(git(root, "show", ":a.txt")).toBe("staged\n");
  expect(read(root, "a.txt")).toBe("edited during the check\n");
}, 60_000);

test("an edit saved before the fixer of it starts: the fixer's output is not staged, the edit is back in the working tree", async () => {
  const m = marks("first");
  const root = repo([
    { name: "first", pattern: "b.txt", timeout: 60, run: pause(m, "first") },
    { ...UPPER, after: ["first"] },
  ]);
  writeFiles(root, { "a.txt": "staged\n", "b.txt": "b staged\n" });
  git(root, "add", "a.txt", "b.txt");
  const check = startCheck(root);
  await atPause(m, "first");
  writeFiles(root, { "a.txt": "my edit\n" });
  letGo(m, "first");
  const r = await check;
  expect(r.code, r.stderr).toBe(1);
  expect(git(root, "show", ":a.txt")).toBe("staged\n");
  expect(read(root, "a.txt")).toBe("my edit\n");
  const kept = /kept in (\S+a\.txt)/.exec(r.stderr)?.[1] as string;
  expect(readFileSync(kept, "utf8")).toBe("MY EDIT\n");
}, 60_000);

test("an edit that makes the file the staged content again: the commit still gets the checked fix", async () => {
  const m = marks("other");
  const root = repo([
    UPPER,
    { name: "other", pattern: "b.txt", timeout: 60, after: ["upper"], run: pause(m, "other") },
  ]);
  writeFiles(root, { "a.txt": "staged\n", "b.txt": "b staged\n" });
  git(root, "add", "a.txt", "b.txt");
  const check = startCheck(root);
  await atPause(m, "other");
  writeFiles(root, { "a.txt": "staged\n" }); // an editor saving its buffer of the staged text
  letGo(m, "other");
  const r = await check;
  expect(r.code, r.stderr).toBe(0);
  expect(git(root, "show", ":a.txt")).toBe("STAGED\n");
  expect(read(root, "a.txt")).toBe("staged\n");
}, 60_000);

test("a partially staged file edited during the check: the edit and the unstaged changes are both in the working tree, nothing unchecked staged", async () => {
  const m = marks("lint");
  const root = repo([{ name: "lint", pattern: "a.txt", timeout: 60, run: pause(m, "lint") }]);
  writeFiles(root, { "a.txt": "one\ntwo\nthree\nfour\nfive\nsix\n" });
  git(root, "add", "a.txt");
  writeFiles(root, { "a.txt": "one\ntwo\nthree\nfour\nfive\nsix\nunstaged line\n" });
  const check = startCheck(root);
  await atPause(m, "lint");
  // an agent that read the staged text (all it could see) and added a line at the top
  writeFiles(root, { "a.txt": "agent line\none\ntwo\nthree\nfour\nfive\nsix\n" });
  letGo(m, "lint");
  const r = await check;
  expect(r.code, r.stderr).toBe(1);
  expect(git(root, "show", ":a.txt")).toBe("one\ntwo\nthree\nfour\nfive\nsix\n");
  expect(read(root, "a.txt")).toBe("agent line\none\ntwo\nthree\nfour\nfive\nsix\nunstaged line\n");
}, 60_000);

test("a rewrite by a callback that does not say `fixes: true` is not staged: the check fails and names it", () => {
  const root = repo([
    { name: "fmt", pattern: "a.txt", timeout: 60, run: 'sed -i "s/.*/\\U&/" a.txt' },
  ]);
  writeFiles(root, { "a.txt": "staged\n" });
  git(root, "add", "a.txt");
  const r = cpilot(["check", "--staged"], { cwd: root, env: { CI: "" } });
  expect(r.code).toBe(1);
  expect(git(root, "show", ":a.txt")).toBe("staged\n");
  expect(r.stderr).toContain(
    "it changed during the run of 'fmt', which does not say `fixes: true`",
  );
  expect(r.stderr).toContain("if 'fmt' rewrites files, give it `fixes: true`");
});

test("through git commit: an edit saved during the hook's check is not committed", async () => {
  const m = marks("lint");
  const root = repo([
    UPPER,
    { name: "lint", pattern: "a.txt", timeout: 60, run: pause(m, "lint") },
  ]);
  expect(cpilot(["install", "git"], { cwd: root }).code).toBe(0);
  writeFiles(root, { "a.txt": "staged\n" });
  git(root, "add", "a.txt");
  const { CI: _ci, ...env } = process.env;
  const child = spawn("git", ["commit", "-qm", "change"], {
    cwd: root,
    env: { ...env, PATH: pathWithCpilot(), ...runtimeEnv() },
    stdio: "ignore",
  });
  const closed = new Promise<number | null>((r) => child.on("close", r));
  await atPause(m, "lint");
  writeFiles(root, { "a.txt": "unchecked\n" });
  letGo(m, "lint");
  expect(await closed).not.toBe(0);
  expect(git(root, "show", "HEAD:a.txt")).toBe("a\n");
  expect(git(root, "show", ":a.txt")).toBe("staged\n");
  expect(read(root, "a.txt")).toBe("unchecked\n");
  expect(
    spawnSync("git", ["log", "--oneline"], { cwd: root, encoding: "utf8" }).stdout.split("\n")
      .length,
  ).toBe(2);
}, 60_000);

test("a file staged by someone else while the check runs (an agent's git add): the commit is stopped, the index left as they staged it", async () => {
  const m = marks("lint");
  const root = repo([{ name: "lint", pattern: "a.txt", timeout: 60, run: pause(m, "lint") }]);
  writeFiles(root, { "a.txt": "staged\n" });
  git(root, "add", "a.txt");
  const check = startCheck(root);
  await atPause(m, "lint");
  writeFiles(root, { "b.txt": "never checked\n" });
  git(root, "add", "b.txt");
  letGo(m, "lint");
  const r = await check;
  expect(r.code, r.stderr).toBe(1);
  expect(r.stderr).toContain("Cannot pass the commit: b.txt was staged while the check ran");
  expect(git(root, "show", ":b.txt")).toBe("never checked\n");
}, 60_000);

test("with a fix to stage: a file staged by someone else meanwhile stops the commit too", async () => {
  const m = marks("other");
  const root = repo([
    UPPER,
    { name: "other", pattern: "b.txt", timeout: 60, after: ["upper"], run: pause(m, "other") },
  ]);
  writeFiles(root, { "a.txt": "staged\n", "b.txt": "b staged\n" });
  git(root, "add", "a.txt", "b.txt");
  const check = startCheck(root);
  await atPause(m, "other");
  writeFiles(root, { "c.txt": "never checked\n" });
  git(root, "add", "c.txt");
  letGo(m, "other");
  const r = await check;
  expect(r.code, r.stderr).toBe(1);
  expect(r.stderr).toContain("c.txt was staged while the check ran");
  // the checked fix is staged all the same: it is what a.txt's checks read
  expect(git(root, "show", ":a.txt")).toBe("STAGED\n");
}, 60_000);

test("a staged file deleted during the check: the deletion is not staged, the index keeps the staged version", async () => {
  const m = marks("lint");
  const root = repo([{ name: "lint", pattern: "*.txt", timeout: 60, run: pause(m, "lint") }]);
  writeFiles(root, { "a.txt": "staged\n" });
  git(root, "add", "a.txt");
  const check = startCheck(root);
  await atPause(m, "lint");
  rmSync(join(root, "a.txt"));
  letGo(m, "lint");
  const r = await check;
  expect(r.code, r.stderr).toBe(1);
  expect(git(root, "show", ":a.txt")).toBe("staged\n");
  expect(existsSync(join(root, "a.txt"))).toBe(false);
}, 60_000);

test("files checked out with CRLF (eol=crlf): a fix is staged as git normalizes it, and an untouched file is no edit", () => {
  const root = repo([UPPER, { name: "lint", pattern: "*.txt", timeout: 60, run: "true" }]);
  writeFiles(root, { ".gitattributes": "*.txt text eol=crlf\n" });
  git(root, "add", ".gitattributes");
  git(root, "commit", "-qm", "crlf");
  rmSync(join(root, "a.txt"));
  rmSync(join(root, "b.txt"));
  git(root, "checkout", "--", "a.txt", "b.txt");
  writeFiles(root, { "a.txt": "staged\r\n", "b.txt": "b staged\r\n" });
  git(root, "add", "a.txt", "b.txt");
  const r = cpilot(["check", "--staged"], { cwd: root, env: { CI: "" } });
  expect(r.code, r.stderr).toBe(0);
  expect(git(root, "show", ":a.txt")).toBe("STAGED\n");
  expect(git(root, "show", ":b.txt")).toBe("b staged\n");
  expect(git(root, "status", "--porcelain")).toBe("M  a.txt\nM  b.txt\n");
});

test.each([
  ["plain", ""],
  ["checked out with CRLF", "*.txt text eol=crlf\n"],
])(
  "a checker that writes a file's own bytes back (%s) changed nothing: the check passes",
  (_, attributes) => {
    const root = repo([
      { name: "touchy", pattern: "*.txt", timeout: 60, run: "sed -i s/zzz/yyy/ a.txt" },
    ]);
    writeFiles(root, { ".gitattributes": attributes });
    git(root, "add", ".gitattributes");
    git(root, "commit", "-qm", "attributes");
    rmSync(join(root, "a.txt"));
    git(root, "checkout", "--", "a.txt");
    writeFiles(root, { "a.txt": attributes ? "staged\r\n" : "staged\n" });
    git(root, "add", "a.txt");
    const r = cpilot(["check", "--staged"], { cwd: root, env: { CI: "" } });
    expect(r.code, r.stderr).toBe(0);
    expect(git(root, "show", ":a.txt")).toBe("staged\n");
  },
);
