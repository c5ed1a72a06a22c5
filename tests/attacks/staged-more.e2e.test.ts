/**
 * More attacks on `check --staged` through a real `git commit` with the hook `cpilot install
 * git` writes, against the compiled binary: the commit records what the person staged.
 */
import { expect, test } from "bun:test";
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { cpilot, cpilotBinary, pathWithCpilot, runtimeEnv } from "../helpers/binary.ts";
import { committedRepo, tempDir, waitFor, writeFiles } from "../helpers/tmp.ts";

const git = (cwd: string, ...args: string[]): string =>
  execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

function commit(cwd: string): { status: number | null; stderr: string } {
  return spawnSync("git", ["commit", "-qm", "change"], {
    cwd,
    encoding: "utf8",
    env: { PATH: pathWithCpilot(), HOME: process.env.HOME ?? "/root", ...runtimeEnv() },
  });
}

test("a staged file whose place a folder took: the commit records the staged version, not its deletion", () => {
  const root = committedRepo("cpilot-attack-staged-folder-", {
    "callbacks.config.json": JSON.stringify({
      callbacks: [{ name: "ok", pattern: "*.txt", timeout: 30, run: "true" }],
    }),
    "a.txt": "a\n",
  });
  expect(cpilot(["install", "git"], { cwd: root }).code).toBe(0);
  writeFiles(root, { "a.txt": "staged\n" });
  git(root, "add", "a.txt");
  rmSync(join(root, "a.txt"));
  mkdirSync(join(root, "a.txt"));
  writeFiles(root, { "a.txt/inner": "precious\n" });
  const r = commit(root);
  expect(r.stderr).not.toContain("staged what callbacks fixed");
  // and the person is told the staged version was not what the callbacks saw
  expect(r.stderr).toContain("the staged version of a.txt is not what callbacks see");
  expect(r.status).toBe(0);
  expect(git(root, "show", "HEAD:a.txt")).toBe("staged\n");
  expect(git(root, "ls-files", "--stage", "a.txt")).toContain("a.txt");
  expect(readFileSync(join(root, "a.txt/inner"), "utf8")).toBe("precious\n");
});

test("check --staged --config FOLDER while another check holds the repository: the folder is named, no git started for its parent", async () => {
  const marks = tempDir("cpilot-marks-");
  const up = join(marks, "up");
  const root = tempDir("cpilot-attack-config-folder-busy-", { git: true });
  const slow = { name: "slow", pattern: "*.txt", timeout: 60, run: `touch "${up}"; sleep 3` };
  writeFiles(root, {
    "callbacks.config.json": JSON.stringify({ callbacks: [slow] }),
    "pkg/callbacks.config.json": JSON.stringify({ callbacks: [slow] }),
    "a.txt": "a\n",
  });
  git(root, "add", "-A");
  git(root, "commit", "-qm", "init");
  writeFiles(root, { "a.txt": "staged\n" });
  git(root, "add", "a.txt");
  const first = spawn(cpilotBinary(), ["check", "--staged"], {
    cwd: root,
    env: {
      PATH: "/usr/local/bin:/usr/bin:/bin",
      HOME: process.env.HOME ?? "/root",
      ...runtimeEnv(),
    },
    stdio: "ignore",
  });
  const closed = new Promise((r) => first.on("close", r));
  try {
    expect(await waitFor(() => existsSync(up), 30_000)).toBe(true);
    const r = cpilot(["check", "--staged", "--config", "pkg"], { cwd: root });
    expect(r.stderr).toContain('Cannot read config "pkg": it is a folder');
    expect(r.code).toBe(2);
  } finally {
    await closed;
  }
}, 60_000);

test("a commit in a repository nested below the config's: check --staged refuses to pass or fail it on the outer repository's staged files", () => {
  const outer = committedRepo("cpilot-attack-nested-", {
    "callbacks.config.json": JSON.stringify({
      callbacks: [{ name: "ok", pattern: "**/*.txt", timeout: 30, run: "true" }],
    }),
    "o.txt": "o\n",
  });
  writeFiles(outer, { "o.txt": "outer staged\n" });
  git(outer, "add", "o.txt");
  const nested = join(outer, "nested");
  mkdirSync(nested);
  git(nested, "init", "-q", "-b", "main");
  git(nested, "config", "user.email", "t@example.invalid");
  git(nested, "config", "user.name", "t");
  writeFiles(nested, { "n.txt": "n\n" });
  git(nested, "add", "n.txt");
  expect(cpilot(["install", "git"], { cwd: nested }).code).toBe(0);
  const r = commit(nested);
  expect(r.stderr).toContain(`Cannot check what is staged in "${nested}"`);
  expect(r.status).not.toBe(0);
  // the outer repository's staged work is as it was
  expect(git(outer, "diff", "--cached", "--name-only")).toBe("o.txt\n");
});
