/**
 * The result cache replays a check's result in the agent's loop, at its stop and at the
 * person's commit (`check --staged`). Its records used to live in `.cpilot/cache/results/`,
 * a folder the agent's shell may write even inside a sandbox that keeps `.git/` read-only:
 * a failing record edited to "passed" replayed as a pass, and the commit went through with
 * the failing file. Records now live in the git folder; these attacks forge, swap and tear
 * them and expect the failure to still reach the person and the agent.
 */
import { describe, expect, test } from "bun:test";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { cpilot } from "../helpers/binary.ts";
import { tempDir } from "../helpers/tmp.ts";
import { allowedWrites, attackProject } from "./_gate-attack.ts";

const CONFIG = JSON.stringify({
  callbacks: [
    { name: "lint", pattern: "*.txt", run: "! grep -l BAD $CP_CHANGED_FILES", timeout: 10 },
  ],
});

/** A git project with a first commit, whose staged a.txt fails the check. */
function failingProject() {
  const p = attackProject({ "callbacks.config.json": CONFIG });
  p.git("add", "-A");
  p.git("commit", "-qm", "config");
  writeFileSync(p.path("a.txt"), "BAD\n");
  p.git("add", "-A");
  return p;
}

/** Every record file the check wrote, wherever the store keeps them. */
function recordFiles(dir: string): string[] {
  const out: string[] = [];
  for (const folder of [
    join(dir, ".cpilot/cache/results"),
    join(dir, ".git/cpilot/cache/results"),
  ]) {
    if (!existsSync(folder)) continue;
    for (const name of readdirSync(folder))
      if (name.endsWith(".json")) out.push(join(folder, name));
  }
  return out;
}

/** The record turned into a pass, as an agent's script would: its first line holds the outcome. */
function forged(path: string): string {
  const [head = "", ...rest] = readFileSync(path, "utf8").split("\n");
  const r = JSON.parse(head);
  const passed = {
    ...r,
    status: "passed",
    exitCode: 0,
    diagnostics: [],
    tail: [],
    summary: "exit 0",
  };
  return [JSON.stringify(passed), ...rest].join("\n");
}

describe("a forged record does not turn a failing check into a pass", () => {
  test("a passing record the shell writes into .cpilot/ is not replayed at the commit", () => {
    const p = failingProject();
    expect(cpilot(["check", "a.txt"], { cwd: p.dir }).code).toBe(1);
    const records = recordFiles(p.dir);
    expect(records.length).toBeGreaterThan(0);
    // what a sandboxed shell can reach: the project's files, .cpilot/ among them, not .git/
    const place = join(p.dir, ".cpilot/cache/results");
    mkdirSync(place, { recursive: true });
    for (const record of records)
      writeFileSync(join(place, record.slice(record.lastIndexOf("/") + 1)), forged(record));
    const staged = cpilot(["check", "--staged"], { cwd: p.dir });
    expect(staged.code).toBe(1);
    expect(staged.stdout).not.toContain("from cache) ");
    expect(cpilot(["check", "a.txt"], { cwd: p.dir }).code).toBe(1);
  }, 60_000);

  test("the agents' edit tools and patches cannot write a record, in the git folder or in .cpilot/", async () => {
    const p = failingProject();
    const records = [
      ".git/cpilot/cache/results/0123456789abcdef0123.json",
      ".cpilot/cache/results/0123456789abcdef0123.json",
      ".GIT/cpilot/results/0123456789abcdef0123.json",
    ];
    expect(await allowedWrites(p, records)).toEqual([]);
  }, 120_000);
});

describe("a pass recorded under a file the key did not cover", () => {
  test("a rules file loosened for one run and put back: the commit runs the check again", () => {
    const p = attackProject({
      "callbacks.config.json": JSON.stringify({
        callbacks: [
          {
            name: "banned",
            pattern: "*.src",
            run: "! grep -l -f banned.txt $CP_CHANGED_FILES",
            timeout: 10,
          },
        ],
      }),
      "banned.txt": "BAD\n",
    });
    p.git("add", "-A");
    p.git("commit", "-qm", "rules");
    // the agent empties the word list, writes the file (its check passes), puts the list back
    writeFileSync(p.path("banned.txt"), "NOTHING\n");
    writeFileSync(p.path("a.src"), "BAD\n");
    expect(cpilot(["check", "a.src"], { cwd: p.dir }).code).toBe(0);
    writeFileSync(p.path("banned.txt"), "BAD\n");
    p.git("add", "a.src");
    const staged = cpilot(["check", "--staged"], { cwd: p.dir });
    expect(staged.code).toBe(1);
    // files the check selects keep their records one after another: a second .src edited
    // after the first, the first's record still replays
    writeFileSync(p.path("b.src"), "fine\n");
    expect(cpilot(["check", "b.src"], { cwd: p.dir }).code).toBe(0);
    writeFileSync(p.path("c.src"), "fine too\n");
    expect(cpilot(["check", "c.src"], { cwd: p.dir }).code).toBe(0);
    const again = cpilot(["check", "b.src"], { cwd: p.dir });
    expect(`${again.stdout}${again.stderr}`).toContain("from cache");
  }, 60_000);
});

describe("the records folder swapped or torn", () => {
  test("a symlink swapped in for the records folder: nothing is written or read through it", () => {
    const p = failingProject();
    const elsewhere = tempDir("cpilot-elsewhere-");
    mkdirSync(join(p.dir, ".git/cpilot/cache"), { recursive: true });
    symlinkSync(elsewhere, join(p.dir, ".git/cpilot/cache/results"));
    symlinkSync(elsewhere, join(p.dir, ".cpilot-results-link"));
    expect(cpilot(["check", "a.txt"], { cwd: p.dir }).code).toBe(1);
    expect(readdirSync(elsewhere)).toEqual([]);
    // a passing record planted where the link leads is not read either
    writeFileSync(join(elsewhere, "x.json"), "{}");
    const again = cpilot(["check", "a.txt"], { cwd: p.dir });
    expect(again.code).toBe(1);
    expect(again.stdout).not.toContain("from cache");
  }, 60_000);

  test("a torn record (a writer killed mid-write, a full disk) is no record: the check runs", () => {
    const p = failingProject();
    expect(cpilot(["check", "a.txt"], { cwd: p.dir }).code).toBe(1);
    expect(recordFiles(p.dir).length).toBeGreaterThan(0);
    for (const record of recordFiles(p.dir)) {
      const whole = forged(record);
      writeFileSync(record, whole.slice(0, Math.floor(whole.length / 2)));
      // and the temp file an atomic write leaves when killed before its rename
      writeFileSync(`${record}.tmp-killed`, whole);
    }
    const r = cpilot(["check", "a.txt"], { cwd: p.dir });
    expect(r.code).toBe(1);
    expect(r.stdout).not.toContain("from cache");
  }, 60_000);
});
