import { describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { cpilot } from "../helpers/binary.ts";
import { committedRepo, tempDir, writeFiles } from "../helpers/tmp.ts";

// `cpilot check --all` again on a project where nothing changed prints the last check's text
// without loading the config or the engine; whatever its runs' results depend on, changed,
// takes the full path and gives the right answer.

interface Project {
  readonly root: string;
  /** Two folders on PATH, `mytool` in the second. */
  readonly bins: readonly [string, string];
  readonly env: Record<string, string>;
}

const TOOL_OK = "#!/bin/sh\nexit 0\n";
const TOOL_BAD = "#!/bin/sh\nexit 1\n";

const CALLBACKS = [
  // given its files
  {
    name: "files",
    pattern: "*.ts",
    run: ["sh", "-c", '! grep -q BAD "$@"', "sh", "{files}"],
    timeout: 20,
  },
  // reads the whole project, untracked and ignored files included
  {
    name: "whole",
    pattern: "*.ts",
    run: "! grep -rqs BAD --include='*.txt' --include=package-lock.json .",
    timeout: 20,
  },
  // a program found on PATH
  { name: "tool", pattern: "*.ts", run: ["mytool", "{files}"], timeout: 20 },
  { name: "bad", pattern: "*.ts", run: ["false"], timeout: 20, enabled: false },
];

function project(extra: Record<string, string> = {}): Project {
  const root = committedRepo("cpilot-whole-", {
    // markers git does not show: only the folder's stamp can tell they came
    ".gitignore": ".cpilot/\npackage-lock.json\npyvenv.cfg\nCACHEDIR.TAG\n",
    "callbacks.config.json": JSON.stringify({ callbacks: CALLBACKS }),
    "src/a.ts": "export const a = 1;\n",
    "lib/b.ts": "export const b = 2;\n",
    ...extra,
  });
  writeFiles(root, { "package-lock.json": "{}\n" }); // ignored: git does not know it
  const bins = [tempDir("cpilot-whole-bin-"), tempDir("cpilot-whole-bin-")] as const;
  writeTool(bins[1], TOOL_OK);
  const env = { PATH: `${bins[0]}:${bins[1]}:/usr/local/bin:/usr/bin:/bin`, CPILOT_TRACE: "1" };
  return { root, bins, env };
}

function writeTool(dir: string, text: string): void {
  writeFileSync(join(dir, "mytool"), text);
  chmodSync(join(dir, "mytool"), 0o755);
}

interface Checked {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Printed again whole: no config loaded, no engine. */
  readonly replayed: boolean;
  /** The lines a person reads, trace lines left out. */
  readonly text: string[];
}

function check(p: Project, env: Record<string, string> = {}, args = ["check", "--all"]): Checked {
  const r = cpilot(args, { cwd: p.root, env: { ...p.env, ...env } });
  const trace = r.stderr.split("\n").filter((l) => l.startsWith("[trace]"));
  const replayed = trace.some((l) => l.endsWith(" whole check replayed"));
  // the two paths never mix: a replay loads no config and plans nothing
  if (replayed) {
    expect(trace.some((l) => l.endsWith(" config loaded"))).toBe(false);
    expect(trace.some((l) => l.endsWith(" engine: runs planned"))).toBe(false);
  }
  const text = r.stderr.split("\n").filter((l) => l !== "" && !l.startsWith("[trace]"));
  return { ...r, replayed, text };
}

/** Checked until a whole record is kept (the runs, then their replays), then replayed once. */
function ready(p: Project): Checked {
  const first = check(p);
  expect(first.code).toBe(0);
  expect(first.replayed).toBe(false);
  const second = check(p);
  expect(second.code).toBe(0);
  expect(second.replayed).toBe(false);
  const third = check(p);
  expect(third.replayed).toBe(true);
  expect(third.code).toBe(0);
  return third;
}

function git(root: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd: root, encoding: "utf8", stdio: "pipe" });
}

test("a check --all on unchanged content prints the last one's text again, without config or engine", () => {
  const p = project();
  check(p);
  const cached = check(p);
  const replay = check(p);
  expect(replay.replayed).toBe(true);
  expect(replay.code).toBe(0);
  // the same run lines; the summary says it is a replay
  expect(replay.text.slice(0, -1)).toEqual(cached.text.slice(0, -1));
  expect(replay.text.slice(0, -1)).toEqual([
    "✓ files (2 files, from cache)",
    "✓ whole (2 files, from cache)",
    "✓ tool (2 files, from cache)",
  ]);
  expect(replay.text.at(-1)).toMatch(
    /^cpilot: 3 runs passed on 4 files in \d+ ms \(whole check replayed: nothing changed since the check \d+ s ago\)$/,
  );
  expect(replay.stdout).toBe("");
  expect(check(p).replayed).toBe(true);
});

test("cpilot cache clear and CPILOT_CACHE=0 make the next check --all a real one", () => {
  const p = project();
  ready(p);
  const cleared = cpilot(["cache", "clear"], { cwd: p.root, env: p.env });
  expect(cleared.code).toBe(0);
  const after = check(p);
  expect(after.replayed).toBe(false);
  expect(after.text.slice(0, -1)).not.toContain("✓ files (2 files, from cache)");
  expect(check(p).replayed).toBe(false);
  expect(check(p).replayed).toBe(true);
  const uncached = check(p, { CPILOT_CACHE: "0" });
  expect(uncached.replayed).toBe(false);
  expect(uncached.text).not.toContain("✓ files (2 files, from cache)");
});

/** After a change, the next check takes the full path with this result. */
const CHANGES: [string, (p: Project) => Record<string, string> | undefined, number][] = [
  ["a tracked file edited", (p) => void writeFiles(p.root, { "src/a.ts": "BAD\n" }), 1],
  [
    "an untracked file that a whole-project check reads",
    (p) => void writeFiles(p.root, { "notes.txt": "BAD\n" }),
    1,
  ],
  [
    "an ignored tool config the keys read (a lockfile)",
    (p) => void writeFiles(p.root, { "package-lock.json": "BAD\n" }),
    1,
  ],
  [
    "the config",
    (p) =>
      void writeFiles(p.root, {
        "callbacks.config.json": JSON.stringify({
          callbacks: [...CALLBACKS, { name: "no", pattern: "*.ts", run: ["false"], timeout: 20 }],
        }),
      }),
    1,
  ],
  [
    "callbacks.managed.json",
    (p) =>
      void writeFiles(p.root, {
        "callbacks.managed.json": JSON.stringify({
          callbacks: [{ name: "no", pattern: "*.ts", run: ["false"], timeout: 20 }],
        }),
      }),
    1,
  ],
  [
    "cpilot enable of a failing callback",
    (p) => {
      expect(cpilot(["enable", "bad"], { cwd: p.root, env: p.env }).code).toBe(0);
      return undefined;
    },
    1,
  ],
  ["PATH pointing at another tool", (p) => ({ PATH: `${failingBin()}:${p.env.PATH}` }), 1],
  ["a tool put earlier on the same PATH", (p) => void writeTool(p.bins[0], TOOL_BAD), 1],
  ["the tool program rewritten", (p) => void writeTool(p.bins[1], TOOL_BAD), 1],
  [
    "skip-worktree set on a file, then the file changed",
    (p) => {
      git(p.root, "update-index", "--skip-worktree", "src/a.ts");
      writeFiles(p.root, { "src/a.ts": "BAD\n" });
      return undefined;
    },
    1,
  ],
  [
    "assume-unchanged set on a file, then the file changed",
    (p) => {
      git(p.root, "update-index", "--assume-unchanged", "src/a.ts");
      writeFiles(p.root, { "src/a.ts": "BAD\n" });
      return undefined;
    },
    1,
  ],
  [
    "a file staged",
    (p) => {
      writeFiles(p.root, { "src/c.ts": "BAD\n" });
      git(p.root, "add", "src/c.ts");
      return undefined;
    },
    1,
  ],
  [
    "a change staged, the work tree as before (the work tree is checked)",
    (p) => {
      writeFiles(p.root, { "src/a.ts": "BAD\n" });
      git(p.root, "add", "src/a.ts");
      writeFiles(p.root, { "src/a.ts": "export const a = 1;\n" });
      return undefined;
    },
    0,
  ],
  [
    "a file added with intent to add",
    (p) => {
      writeFiles(p.root, { "src/c.ts": "export const c = 3;\n" });
      git(p.root, "add", "-N", "src/c.ts");
      return undefined;
    },
    0,
  ],
  [
    "HEAD moved to a commit with other content",
    (p) => {
      git(p.root, "checkout", "-q", "-b", "other");
      writeFiles(p.root, { "lib/b.ts": "BAD\n" });
      git(p.root, "commit", "-qam", "bad");
      return undefined;
    },
    1,
  ],
  ["NO_COLOR set", () => ({ NO_COLOR: "1" }), 0],
  ["FORCE_COLOR set", () => ({ FORCE_COLOR: "1" }), 0],
];

function failingBin(): string {
  const dir = tempDir("cpilot-whole-bin-");
  writeTool(dir, TOOL_BAD);
  return dir;
}

describe("a change to what the check's results depend on takes the full path", () => {
  for (const [name, change, code] of CHANGES) {
    test(name, () => {
      const p = project();
      ready(p);
      const env = change(p) ?? {};
      const after = check(p, env);
      expect(after.replayed).toBe(false);
      expect(after.code).toBe(code);
      expect(after.text.join("\n")).not.toContain("whole check replayed");
    });
  }
});

test("a virtualenv's marker in a folder leaves its files out: the next check says so", () => {
  const p = project();
  ready(p);
  writeFiles(p.root, { "lib/pyvenv.cfg": "home = /usr/bin\n" });
  const after = check(p);
  expect(after.replayed).toBe(false);
  expect(after.text.join("\n")).toContain("lib/ left out");
});

test("an empty conda-meta folder, which git does not show, leaves its folder out", () => {
  const p = project();
  ready(p);
  mkdirSync(join(p.root, "src", "conda-meta"));
  const after = check(p);
  expect(after.replayed).toBe(false);
  expect(after.text.join("\n")).toContain("src/ left out: a conda environment");
});

test("a marker in a folder unchanged for seconds is seen by its stamp", async () => {
  const p = project();
  // the folders' times must be older than the file system's clock can blur
  await Bun.sleep(3200);
  ready(p);
  writeFiles(p.root, { "src/CACHEDIR.TAG": "Signature: 8a477f597d28d172789f06886806bc55\n" });
  const after = check(p);
  expect(after.replayed).toBe(false);
  expect(after.text.join("\n")).toContain("src/ left out");
});

test("--json, --only, --dry-run and a GitHub Actions run are never replayed whole", () => {
  const p = project();
  ready(p);
  const json = check(p, {}, ["check", "--all", "--json"]);
  expect(json.replayed).toBe(false);
  const doc = JSON.parse(json.stdout) as { ok: boolean; runs: { fromCache?: boolean }[] };
  expect(doc.ok).toBe(true);
  expect(doc.runs.every((r) => r.fromCache === true)).toBe(true);
  for (const args of [
    ["check", "--all", "--only", "files"],
    ["check", "--all", "--dry-run"],
  ]) {
    const r = check(p, {}, args);
    expect(r.code).toBe(0);
    expect(r.replayed).toBe(false);
  }
  for (let i = 0; i < 3; i++) expect(check(p, { GITHUB_ACTIONS: "true" }).replayed).toBe(false);
});

test("a run that was not replayed from the cache keeps no whole record", () => {
  // cache: false runs every time: its result is never vouched for by a record
  const root = committedRepo("cpilot-whole-", {
    ".gitignore": ".cpilot/\n",
    "callbacks.config.json": JSON.stringify({
      callbacks: [{ name: "live", pattern: "*.ts", run: ["true"], timeout: 20, cache: false }],
    }),
    "a.ts": "",
  });
  const p: Project = { root, bins: ["", ""], env: { CPILOT_TRACE: "1" } };
  for (let i = 0; i < 4; i++) {
    const r = check(p);
    expect(r.code).toBe(0);
    expect(r.replayed).toBe(false);
  }
  const results = join(git(root, "rev-parse", "--absolute-git-dir").trim(), "cpilot/cache/results");
  const names = existsSync(results) ? readdirSync(results) : [];
  const whole = names.filter((name) =>
    readFileSync(join(results, name), "utf8").includes('"kind":"whole-check"'),
  );
  expect(whole).toEqual([]);
});

test("a TypeScript config's own module changed takes the full path", () => {
  const root = committedRepo("cpilot-whole-", {
    ".gitignore": ".cpilot/\n",
    "callbacks.config.ts": [
      'import { defineConfig } from "cpilot";',
      'import { checks } from "./checks.ts";',
      "export default defineConfig({ callbacks: checks });",
      "",
    ].join("\n"),
    "checks.ts": `export const checks = ${JSON.stringify([
      { name: "t", pattern: "*.ts", run: ["true"], timeout: 20 },
    ])};\n`,
    "a.ts": "",
  });
  const p: Project = { root, bins: ["", ""], env: { CPILOT_TRACE: "1" } };
  ready(p);
  writeFiles(root, {
    "checks.ts": `export const checks = ${JSON.stringify([
      { name: "t", pattern: "*.ts", run: ["true"], timeout: 20 },
      { name: "no", pattern: "*.ts", run: ["false"], timeout: 20 },
    ])};\n`,
  });
  const after = check(p);
  expect(after.replayed).toBe(false);
  expect(after.code).toBe(1);
});

test("a file git's ident attribute cleans back to the committed blob is read by its bytes", () => {
  // git status compares the cleaned content: "$Id: BAD $" is "$Id$" to it, as "$Id: ok1 $" was
  const root = committedRepo("cpilot-whole-", {
    ".gitignore": ".cpilot/\n",
    ".gitattributes": "*.txt ident\n",
    "callbacks.config.json": JSON.stringify({
      callbacks: [{ name: "words", pattern: "*.txt", run: '! grep -l BAD "$@"', timeout: 20 }],
    }),
    "a.txt": "$Id: ok1 $\n",
  });
  const p: Project = { root, bins: ["", ""], env: { CPILOT_TRACE: "1" } };
  ready(p);
  writeFiles(root, { "a.txt": "$Id: BAD $\n" });
  expect(git(root, "status", "--porcelain")).toBe("");
  const after = check(p);
  expect(after.replayed).toBe(false);
  expect(after.code).toBe(1);
});
