import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

const created: string[] = [];

/**
 * Remove every folder tempDir made in this test process (tests/setup.ts calls it after all
 * tests; a test file calling it removes other files' folders too, such as the PATH folder
 * that holds `cpilot`: only setup.ts may), in a detached `rm` that outlives the test run: the run never waits for it and its
 * failures (a folder something is mounted on, a busy disk) never fail the run.
 */
export function removeTempDirs(): void {
  const dirs = created.splice(0);
  if (dirs.length === 0) return;
  try {
    const rm = spawn("rm", ["-rf", "--", ...dirs], { detached: true, stdio: "ignore" });
    rm.on("error", () => removeHere(dirs));
    rm.unref();
  } catch {
    removeHere(dirs);
  }
}

function removeHere(dirs: readonly string[]): void {
  for (const dir of dirs) {
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch (err) {
      process.stderr.write(`tests/helpers/tmp.ts: cannot remove ${dir}: ${String(err)}\n`);
    }
  }
}

/** A fresh real temp folder (symlinks resolved), optionally a git repo; removed after the run. */
export function tempDir(prefix = "cpilot-test-", options: { git?: boolean } = {}): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  created.push(dir);
  if (options.git) {
    const git = (...args: string[]) => execFileSync("git", args, { cwd: dir, stdio: "pipe" });
    git("init", "-q", "-b", "main");
    git("config", "user.email", "t@example.invalid");
    git("config", "user.name", "t");
    git("config", "commit.gpgsign", "false");
  }
  return dir;
}

/** A git repository in a fresh temp folder holding `files`, committed once ("init"). */
export function committedRepo(prefix: string, files: Record<string, string>): string {
  const root = tempDir(prefix, { git: true });
  writeFiles(root, files);
  execFileSync("git", ["add", "-A"], { cwd: root, stdio: "pipe" });
  execFileSync("git", ["commit", "-qm", "init"], { cwd: root, stdio: "pipe" });
  return root;
}

/** Write files (relative path → content), creating folders. */
export function writeFiles(root: string, files: Record<string, string>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
}

/** True while a process exists (zombies count as gone). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

/**
 * Poll until `check` is true or `ms` pass; returns the last result. The deadline only bounds a
 * test that is failing: it must be long enough for a busy machine (two cores shared by many
 * test processes), since a wait returns as soon as its condition holds.
 */
export async function waitFor(check: () => boolean, ms = 30_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return check();
}
