// The generated repo a benchmark runs in: `files` tracked files (half *.ts, which the `true`
// callback of every tool matches, half *.md), `perFolder` to a folder, committed; each tool's
// config for the same job; and, on request, ignored files in node_modules/ (a real project's
// untracked walk passes over them). Staging helpers change *.ts files and `git add` them.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface RepoShape {
  readonly files: number;
  readonly perFolder: number;
}

/** Where tracked file `i` lives: folders of `perFolder` files, 100 folders to a parent. */
export function trackedPath(i: number, perFolder: number): string {
  const folder = Math.floor(i / perFolder);
  return `src/g${Math.floor(folder / 100)}/d${folder % 100}/f${i}.${i % 2 === 0 ? "ts" : "md"}`;
}

/** The file the hook case edits (the first tracked file, whatever the folder size). */
export const HOOK_FILE = trackedPath(0, 1);

export function gitIn(dir: string): (...args: string[]) => string {
  return (...args) =>
    execFileSync("git", args, {
      cwd: dir,
      stdio: ["ignore", "pipe", "pipe"],
      maxBuffer: 1 << 28,
    }).toString();
}

const PREK_CONFIG = `repos:
  - repo: local
    hooks:
      - id: t
        name: t
        entry: "true"
        language: system
        files: '\\.ts$'
`;

/** Create and commit the repo in the empty folder `dir`. */
export function makeRepo(dir: string, shape: RepoShape): void {
  const git = gitIn(dir);
  git("init", "-q", "-b", "main");
  git("config", "user.email", "bench@example.invalid");
  git("config", "user.name", "bench");
  git("config", "commit.gpgsign", "false");
  // No tool may install git hooks that run during the benchmark's own commits.
  git("config", "core.hooksPath", "/dev/null");
  let made = "";
  for (let i = 0; i < shape.files; i++) {
    const path = join(dir, trackedPath(i, shape.perFolder));
    const folder = path.slice(0, path.lastIndexOf("/"));
    if (folder !== made) mkdirSync(folder, { recursive: true });
    made = folder;
    writeFileSync(path, `export const v${i} = ${i};\n`);
  }
  writeFileSync(
    join(dir, "callbacks.config.json"),
    JSON.stringify({
      callbacks: [
        { name: "t", pattern: "*.ts", run: ["true"], timeout: 30 },
        // The hook case's one matching callback: Claude Code (with PostToolBatch) runs only
        // per-file callbacks on PostToolUse, so without this the timed hook call ran none.
        // It matches the hook case's file alone; in the other cases it adds one run to cpilot.
        { name: "h", pattern: HOOK_FILE, per: "file", run: ["true"], timeout: 30 },
      ],
    }),
  );
  writeFileSync(
    join(dir, "lefthook.yml"),
    "pre-commit:\n  commands:\n    t:\n      glob: '*.ts'\n      run: true {staged_files}\n",
  );
  writeFileSync(join(dir, ".pre-commit-config.yaml"), PREK_CONFIG);
  writeFileSync(join(dir, ".lintstagedrc.json"), JSON.stringify({ "*.ts": "true" }));
  writeFileSync(join(dir, ".gitignore"), ".cpilot/\nnode_modules/\n");
  git("add", "-A");
  git("commit", "-q", "-m", "bench repo");
}

/** Add `count` ignored files below node_modules/, 10 to a package folder (shaped like npm's). */
export function addIgnored(dir: string, count: number): void {
  for (let i = 0; i < count; i += 10) {
    const pkg = join(dir, "node_modules", `p${Math.floor(i / 1000)}`, `pkg${i / 10}`);
    mkdirSync(pkg, { recursive: true });
    for (let j = i; j < Math.min(i + 10, count); j++) {
      writeFileSync(join(pkg, `m${j}.js`), `module.exports = ${j};\n`);
    }
  }
}

/** Stage a change to `n` tracked *.ts files (fewer if the repo has fewer); unstage anything else. */
export function stageChanges(dir: string, shape: RepoShape, n: number, partial = false): number {
  const git = gitIn(dir);
  git("reset", "-q");
  git("checkout", "-q", "--", ".");
  const paths: string[] = [];
  for (let i = 0; i < shape.files && paths.length < n; i += 2) {
    const p = trackedPath(i, shape.perFolder);
    writeFileSync(join(dir, p), `export const v${i} = ${i + 1};\n`);
    paths.push(p);
  }
  for (let k = 0; k < paths.length; k += 500) git("add", "--", ...paths.slice(k, k + 500));
  // A partially staged file: one more change on top, left unstaged, which a check of the
  // staged content must set aside and put back (lint-staged's and lefthook's stash case).
  const first = paths[0];
  if (partial && first !== undefined)
    writeFileSync(join(dir, first), "export const unstaged = 1;\n", { flag: "a" });
  return paths.length;
}

/** Put the working tree and the index back to the commit. */
export function unstageAll(dir: string): void {
  const git = gitIn(dir);
  git("reset", "-q");
  git("checkout", "-q", "--", ".");
}

/** How long the slow job of the re-check cases takes: a real checker's time on a few files. */
export const SLOW_JOB_S = 0.3;

/**
 * Every tool's config for one slow job (`sleep 0.3` over the *.ts files) instead of `true`:
 * the re-check cases, where cpilot replays a result and the peers run the job again.
 * `perFile`: cpilot runs it once per file, as an agent's PostToolUse does.
 */
export function writeSlowConfigs(dir: string, perFile: boolean): void {
  const job = `sleep ${SLOW_JOB_S}; true`;
  writeFileSync(
    join(dir, "callbacks.config.json"),
    JSON.stringify({
      callbacks: [
        {
          name: "t",
          pattern: "*.ts",
          run: `${job} "$@"`,
          timeout: 30,
          ...(perFile ? { per: "file" } : {}),
        },
      ],
    }),
  );
  writeFileSync(
    join(dir, "lefthook.yml"),
    `pre-commit:\n  commands:\n    t:\n      glob: '*.ts'\n      run: ${job} {staged_files}\n`,
  );
  writeFileSync(
    join(dir, ".pre-commit-config.yaml"),
    PREK_CONFIG.replace('entry: "true"', `entry: bash -c '${job}' --`),
  );
}

export const CONFIGS = ["callbacks.config.json", "lefthook.yml", ".pre-commit-config.yaml"];

/** The slow configs staged too: prek refuses to run with its config changed but unstaged. */
export function stageConfigs(dir: string): void {
  gitIn(dir)("add", "--", ...CONFIGS);
}

/** The committed configs back, in the index and the tree (after the re-check cases). */
export function restoreConfigs(dir: string): void {
  gitIn(dir)(
    "checkout",
    "-q",
    "--",
    "callbacks.config.json",
    "lefthook.yml",
    ".pre-commit-config.yaml",
  );
}
