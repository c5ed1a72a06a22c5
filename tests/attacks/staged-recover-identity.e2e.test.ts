/**
 * Work a killed `check --staged` set aside goes back only into the repository it was set
 * aside in, found by its git folder's identity, not by the path its journal names: in a
 * copy of the repository nothing is written into the original, and a moved repository gets
 * its work back where it is now (the old path is not made again).
 */
import { afterEach, expect, test } from "bun:test";
import { execFileSync, spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, renameSync } from "node:fs";
import { join } from "node:path";
import { cpilot, cpilotBinary, runtimeEnv } from "../helpers/binary.ts";
import { tempDir, waitFor, writeFiles } from "../helpers/tmp.ts";
import { treeState } from "../helpers/tree-state.ts";

const git = (cwd: string, ...args: string[]): string =>
  execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

const groups: number[] = [];
afterEach(() => {
  for (const pid of groups.splice(0)) {
    try {
      process.kill(-pid, "SIGKILL");
    } catch {
      // gone
    }
  }
});

/**
 * A repository whose `check --staged` was SIGKILLed while its callback ran: a partially
 * staged file and an untracked one are set aside in `.git/cpilot/stage`. Returns the repo
 * and its state before the check.
 */
async function killedCheck(): Promise<{ root: string; before: Record<string, string> }> {
  const marks = tempDir("cpilot-marks-");
  const up = join(marks, "up");
  const parent = tempDir("cpilot-identity-");
  const root = join(parent, "repo");
  execFileSync("mkdir", [root]);
  for (const args of [
    ["init", "-q", "-b", "main"],
    ["config", "user.email", "t@example.invalid"],
    ["config", "user.name", "t"],
  ]) {
    git(root, ...args);
  }
  writeFiles(root, {
    "callbacks.config.json": JSON.stringify({
      // says it runs (its pid, for the cleanup), then waits for ever
      callbacks: [
        { name: "wait", pattern: "*.txt", timeout: 120, run: `echo $$ > "${up}"; exec sleep 600` },
      ],
    }),
    ".gitignore": ".cpilot/\n",
    "a.txt": "one\ntwo\nthree\n",
  });
  git(root, "add", "-A");
  git(root, "commit", "-qm", "init");
  writeFiles(root, { "a.txt": "one\ntwo STAGED\nthree\n" });
  git(root, "add", "a.txt");
  writeFiles(root, {
    "a.txt": "one\ntwo STAGED\nthree\nunstaged line\n",
    "notes.txt": "untracked\n",
  });
  const before = treeState(root);
  const child = spawn(cpilotBinary(), ["check", "--staged"], {
    cwd: root,
    env: {
      PATH: "/usr/local/bin:/usr/bin:/bin",
      HOME: process.env.HOME ?? "/root",
      ...runtimeEnv(),
    },
    stdio: "ignore",
  });
  const closed = new Promise((r) => child.on("close", r));
  expect(
    await waitFor(() => existsSync(up) && readFileSync(up, "utf8").endsWith("\n"), 30_000),
  ).toBe(true);
  groups.push(Number(readFileSync(up, "utf8")));
  child.kill("SIGKILL");
  await closed;
  expect(existsSync(join(root, ".git", "cpilot", "stage", "journal.json"))).toBe(true);
  return { root, before };
}

test("in a copy of the repository: nothing is written into the original, the copy keeps what it found and says where", async () => {
  const { root, before } = await killedCheck();
  const original = treeState(root);
  const copy = join(tempDir("cpilot-identity-copy-"), "copy");
  execFileSync("cp", ["-a", root, copy]);
  const r = cpilot(["list"], { cwd: copy });
  // the original is as the killed check left it: its own recovery is its own
  expect(treeState(root)).toEqual(original);
  expect(existsSync(join(root, ".git", "cpilot", "stage", "journal.json"))).toBe(true);
  expect(r.stderr).toContain(`set aside in ${root}`);
  expect(r.stderr).toContain("not in this repository");
  expect(r.stderr).not.toContain("is as it was");
  const kept = /kept in (\S+)/.exec(r.stderr)?.[1] as string;
  expect(kept.startsWith(join(copy, ".git", "cpilot", "kept"))).toBe(true);
  expect(readFileSync(join(kept, "tracked", "a.txt"), "utf8")).toBe(
    "one\ntwo STAGED\nthree\nunstaged line\n",
  );
  expect(readFileSync(join(kept, "untracked", "notes.txt"), "utf8")).toBe("untracked\n");
  // said once: the next call finds nothing
  expect(cpilot(["list"], { cwd: copy }).stderr).not.toContain("set aside");
  // and the original still gets its work back from its own folder
  const back = cpilot(["check", "--restore"], { cwd: root });
  expect(back.stderr).toContain("put back 2 files");
  expect(treeState(root)).toEqual(before);
}, 60_000);

test("a moved repository: the work goes back where it is now, and the old path is not made again", async () => {
  const { root, before } = await killedCheck();
  const moved = join(tempDir("cpilot-identity-moved-"), "moved");
  renameSync(root, moved);
  const r = cpilot(["list"], { cwd: moved });
  expect(r.stderr).toContain("put back 2 files");
  expect(r.stderr).toContain(`in ${moved}; the repository was at ${root} then`);
  expect(existsSync(root)).toBe(false);
  expect(treeState(moved)).toEqual(before);
  expect(readdirSync(join(moved, ".git", "cpilot"))).not.toContain("stage");
}, 60_000);

test("check --restore in a copy: says what it found and where, writes nothing into the original", async () => {
  const { root } = await killedCheck();
  const original = treeState(root);
  const copy = join(tempDir("cpilot-identity-copy-"), "copy");
  execFileSync("cp", ["-a", root, copy]);
  const r = cpilot(["check", "--restore"], { cwd: copy });
  expect(r.code).toBe(0);
  expect(r.stderr).toContain("not in this repository");
  expect(treeState(root)).toEqual(original);
}, 60_000);
