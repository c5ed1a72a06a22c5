/**
 * The records a whole `check --all` replay reads, attacked: forged where the agent can write,
 * torn, written by a run killed at any moment, shared between worktrees, and the project
 * folder swapped for a copy. A failing project must still fail, a passing one still pass.
 */
import { describe, expect, test } from "bun:test";
import { execFileSync, spawn } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { dirname, join, relative } from "node:path";
import { cpilot, cpilotBinary, runtimeEnv } from "../helpers/binary.ts";
import { tempDir } from "../helpers/tmp.ts";
import { type Replayed, replayedProject, rewriteKeepingStat } from "./_whole-replay.ts";

const CONFIG = JSON.stringify({
  callbacks: [
    { name: "words", pattern: "*.txt", run: '! grep -l BAD "$@"', timeout: 10 },
    { name: "notes", pattern: "*.md", run: "! grep -rl --include=*.md BAD .", timeout: 10 },
  ],
});
const FILES = { "callbacks.config.json": CONFIG, "a.txt": "ok1\n", "r.md": "x\n" };

/** Every file under `dir`, relative to it. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) out.push(relative(dir, path));
    }
  };
  walk(dir);
  return out;
}

/** A JSON line turned into a pass, wherever it says how the run went. */
function passing(line: string): string {
  try {
    const value = JSON.parse(line);
    if (value === null || typeof value !== "object") return line;
    return JSON.stringify({
      ...value,
      ...("status" in value ? { status: "passed" } : {}),
      ...("ok" in value ? { ok: true } : {}),
      ...("exitCode" in value ? { exitCode: 0 } : {}),
      ...("diagnostics" in value ? { diagnostics: [] } : {}),
      ...("tail" in value ? { tail: [] } : {}),
    });
  } catch {
    return line;
  }
}

/** Every record cpilot keeps in the git folder, copied where the agent's shell can write, turned into passes. */
function forgeIntoProject(p: Replayed): number {
  const kept = p.path(".git/cpilot");
  const files = filesUnder(kept);
  for (const file of files) {
    const text = readFileSync(join(kept, file), "utf8");
    const forged = text.split("\n").map(passing).join("\n");
    for (const place of [p.path(".cpilot"), p.path(".cpilot/cpilot")]) {
      mkdirSync(dirname(join(place, file)), { recursive: true });
      writeFileSync(join(place, file), forged);
    }
  }
  return files.length;
}

describe("records forged where the agent can write", () => {
  test("the git folder's records copied into .cpilot/ as passes: a failing project fails", () => {
    const p = replayedProject(FILES);
    rewriteKeepingStat(p.path("a.txt"), "BAD\n");
    expect(p.check().code).toBe(1);
    expect(forgeIntoProject(p)).toBeGreaterThan(0);
    expect(p.check().code).toBe(1);
    expect(p.check().code).toBe(1);
  }, 60_000);

  test("the passing state's records copied into .cpilot/, then the project broken", () => {
    const p = replayedProject(FILES);
    expect(forgeIntoProject(p)).toBeGreaterThan(0);
    writeFileSync(p.path("new.md"), "BAD\n");
    expect(p.check().code).toBe(1);
  }, 60_000);
});

describe("records torn or half-written", () => {
  test("every kept file cut in half, a stray temp file beside each: the answer holds", () => {
    const p = replayedProject(FILES);
    for (const base of [p.path(".git/cpilot"), p.path(".cpilot")])
      for (const file of filesUnder(base)) {
        const path = join(base, file);
        const text = readFileSync(path);
        writeFileSync(`${path}.tmp-killed`, text);
        writeFileSync(path, text.subarray(0, Math.floor(text.length / 2)));
      }
    const again = p.check();
    expect(again.code).toBe(0);
    expect(again.text).not.toContain("Error");
    rewriteKeepingStat(p.path("a.txt"), "BAD\n");
    expect(p.check().code).toBe(1);
  }, 60_000);

  test("check --all killed at any moment while it writes: the next ones answer right", async () => {
    const p = replayedProject(FILES);
    // stop points spread over a run; whatever moment each lands on, the answers after must hold
    for (const afterMs of [0, 2, 5, 10, 20, 40, 80]) {
      await killedRun(p.dir, afterMs);
      expect(p.check().code).toBe(0);
      rewriteKeepingStat(p.path("a.txt"), "BAD\n");
      await killedRun(p.dir, afterMs);
      expect(p.check().code).toBe(1);
      rewriteKeepingStat(p.path("a.txt"), "ok1\n");
      await killedRun(p.dir, afterMs);
    }
    expect(p.check().code).toBe(0);
    expect(p.check().code).toBe(0);
    writeFileSync(p.path("new.md"), "BAD\n");
    expect(p.check().code).toBe(1);
  }, 120_000);
});

/** Start `check --all` in `dir`, SIGKILL it after `afterMs`, wait until it is gone. */
function killedRun(dir: string, afterMs: number): Promise<void> {
  return new Promise((resolve) => {
    const child = spawn(cpilotBinary(), ["check", "--all"], {
      cwd: dir,
      env: {
        PATH: "/usr/local/bin:/usr/bin:/bin",
        HOME: process.env.HOME ?? "/root",
        ...runtimeEnv(),
      },
      stdio: "ignore",
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), afterMs);
    child.on("exit", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

describe("the same records seen from another folder", () => {
  test("a linked worktree with a failing file: its check --all fails", () => {
    const p = replayedProject(FILES);
    const other = join(tempDir("cpilot-worktree-"), "wt");
    p.git("worktree", "add", "-q", "--detach", other);
    writeFileSync(join(other, "a.txt"), "BAD\n");
    const r = cpilot(["check", "--all"], { cwd: other });
    expect(r.code).toBe(1);
    // and the first worktree still answers for itself
    expect(p.check().code).toBe(0);
  }, 60_000);

  test("the project folder swapped for a copy whose file was changed keeping its stat", () => {
    const p = replayedProject(FILES);
    const hold = tempDir("cpilot-swap-");
    const copy = join(hold, "copy");
    execFileSync("cp", ["-a", p.dir, copy]);
    rewriteKeepingStat(join(copy, "a.txt"), "BAD\n");
    expect(statSync(join(copy, "a.txt")).mtimeMs).toBe(statSync(p.path("a.txt")).mtimeMs);
    renameSync(p.dir, join(hold, "old"));
    renameSync(copy, p.dir);
    expect(p.check().code).toBe(1);
  }, 60_000);

  test("a file git ignored until .git/info/exclude changed: a callback listing with git sees it", () => {
    const p = replayedProject(
      {
        "callbacks.config.json": JSON.stringify({
          callbacks: [
            {
              name: "notes",
              pattern: "*.md",
              run: "! git ls-files -co --exclude-standard -- '*.md' | xargs -r grep -l BAD",
              timeout: 10,
            },
          ],
        }),
        "r.md": "x\n",
        "hidden.md": "BAD\n",
      },
      {
        beforeCommit: (q) => {
          writeFileSync(q.path(".git/info/exclude"), "hidden.md\n");
        },
      },
    );
    writeFileSync(p.path(".git/info/exclude"), "\n");
    expect(p.check().code).toBe(1);
  }, 60_000);
});
