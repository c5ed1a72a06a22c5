/**
 * Shared by the whole-replay attacks: a project whose `check --all` passed three times (the
 * second replayed every result from the cache, so a whole `check --all` may be replayed from
 * then on), and ways to change one thing behind its back.
 */

import { expect } from "bun:test";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cpilot, type Result } from "../helpers/binary.ts";
import { tempDir, writeFiles } from "../helpers/tmp.ts";

export interface Replayed {
  readonly dir: string;
  path(name: string): string;
  /** Run git in the project; its stdout. Throws when git fails. */
  git(...args: string[]): string;
  /** `cpilot ARGS` (default `check --all`) in the project, or in `cwd` below it. */
  check(args?: string[], options?: CheckOptions): Checked;
}

export interface CheckOptions {
  /** Added to the project's environment, or in its place with `replaceEnv`. */
  env?: Record<string, string>;
  replaceEnv?: boolean;
  /** Where to start, relative to the project. */
  cwd?: string;
}

export interface Checked extends Result {
  /** stdout and stderr together: the text a person reads. */
  readonly text: string;
}

export interface ProjectOptions {
  /** Environment every `check` gets unless it says otherwise. */
  env?: Record<string, string>;
  /** Arguments of the three first runs (default `check --all`). */
  args?: string[];
  /** Where the three first runs start, relative to the project (default its root). */
  cwd?: string;
  /** Runs before the first commit (git config, say). */
  beforeCommit?: (p: Replayed) => void;
  /** Leave the files uncommitted, for projects that start from a dirty tree. */
  commit?: boolean;
  /** Default true: the second run must replay every result (false: a run that is never replayed). */
  everyRunReplayed?: boolean;
  /** Default true: a build that replays whole checks replays this one (false: it must not, by design). */
  wholeReplayed?: boolean;
}

/** A folder outside every project, for logs callbacks append to and programs on PATH. */
export function outside(): string {
  return tempDir("cpilot-outside-");
}

/** Lines a callback appended to `log` (one per run); 0 when it never ran. */
export function runsIn(log: string): number {
  if (!existsSync(log)) return 0;
  return readFileSync(log, "utf8").split("\n").filter(Boolean).length;
}

/** A git project holding `files`, committed, whose `check --all` passed three times in a row. */
export function replayedProject(
  files: Record<string, string>,
  options: ProjectOptions = {},
): Replayed {
  const dir = tempDir("cpilot-whole-", { git: true });
  const env = options.env ?? {};
  const p: Replayed = {
    dir,
    path: (name) => join(dir, name),
    git: (...args) => execFileSync("git", args, { cwd: dir, encoding: "utf8", stdio: "pipe" }),
    check: (args = ["check", "--all"], o = {}) => {
      const r = cpilot(args, {
        cwd: join(dir, o.cwd ?? ""),
        env: o.replaceEnv ? { ...o.env } : { ...env, ...o.env },
      });
      return { ...r, text: `${r.stdout}${r.stderr}` };
    },
  };
  writeFiles(dir, files);
  options.beforeCommit?.(p);
  if (options.commit !== false) {
    p.git("add", "-A");
    p.git("commit", "-qm", "init");
  }
  const args = options.args ?? ["check", "--all"];
  const cwd = options.cwd ? { cwd: options.cwd } : {};
  const first = p.check(args, cwd);
  expect(first.text).toContain("passed");
  expect(first.code).toBe(0);
  const second = p.check(args, cwd);
  expect(second.code).toBe(0);
  // every run replayed: the run after it may be a whole replay, which is what is attacked
  const lines = plain(second.text)
    .split("\n")
    .filter((line) => line.startsWith("✓"));
  expect(lines.length).toBeGreaterThan(0);
  if (options.everyRunReplayed !== false)
    for (const line of lines) expect(line).toContain("from cache");
  const third = p.check(args, cwd);
  expect(third.code).toBe(0);
  // against a build that replays whole checks, prove each attack starts from such a replay
  if (process.env.CPILOT_TEST_WHOLE_REPLAY === "1" && options.everyRunReplayed !== false) {
    const whole = plain(third.text).includes("whole check replayed");
    expect(whole).toBe(options.wholeReplayed !== false);
  }
  return p;
}

/**
 * Rewrite `file` with `content` (the same length, for a stat that differs only in ctime) and
 * put its times back, as a script covering its tracks would: same size, same mtime, same inode.
 */
export function rewriteKeepingStat(file: string, content: string): void {
  const before = readFileSync(file);
  if (before.length !== Buffer.byteLength(content))
    throw new Error(`${file}: ${before.length} bytes, the new content has another size`);
  const ref = join(outside(), "times");
  writeFileSync(ref, "");
  execFileSync("touch", ["-h", "-r", file, ref]);
  writeFileSync(file, content);
  execFileSync("touch", ["-h", "-r", ref, file]);
}

/** Put `file`'s times (a symlink's own, a folder's) back to what they were before `change`. */
export function keepingTimes(file: string, change: () => void): void {
  const ref = join(outside(), "times");
  writeFileSync(ref, "");
  execFileSync("touch", ["-h", "-r", file, ref]);
  change();
  execFileSync("touch", ["-h", "-r", ref, file]);
}

/** The ✓/✗ lines of a check's text, without durations and cache marks: what the runs said. */
export function verdicts(text: string): string[] {
  return plain(text)
    .split("\n")
    .filter((line) => /^[✓✗]/.test(line))
    .map((line) =>
      line
        .replace(/,? ?\d+(\.\d+)? m?s\b/g, "")
        .replace(/,? ?from cache/g, "")
        .replace(/ \(\)$/, ""),
    );
}

/** `text` without colour codes. */
export function plain(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: colour codes start with ESC
  return text.replace(/\u001b\[[0-9;]*m/g, "");
}
