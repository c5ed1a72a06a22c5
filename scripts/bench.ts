// Times `cpilot check` with a `true` callback on 1 staged file, 1,000 staged files, 1 partially
// staged file (the unstaged change set aside and put back) and --all in a generated repo of 20,000 files (10,000 *.ts), beside the floor (spawning `bash -c true`)
// and lefthook and lint-staged doing the same job, all in the same run. Reports medians and
// ratios, and how much of cpilot's time is the runtime's own start and exit (an empty
// program compiled the same way); asserts nothing.
// Usage: scripts/bench [--runs N] [--files N] [--keep] [--no-others] [--dir DIR]
// (the repo is built below DIR, default node_modules/.cache/cpilot-bench: see _bench-dir.ts)
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { benchDir, createCostLine } from "./_bench-dir.ts";
import { buildRuntimeFloor } from "./_runtime-floor.ts";

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "15" },
    files: { type: "string", default: "20000" },
    keep: { type: "boolean" },
    "no-others": { type: "boolean" },
    dir: { type: "string" },
  },
});
const RUNS = Number(values.runs);
const TOTAL = Number(values.files);
const repoRoot = resolve(import.meta.dir, "..");
const cpilot = join(repoRoot, "dist", "cpilot");
// The tools we compare with are installed on first use into a cache folder, with scripts off:
// lefthook's postinstall would otherwise install git hooks into whatever repo ran npm.
const toolsDir = join(repoRoot, "node_modules", ".cache", "cpilot-bench");
if (!values["no-others"] && !existsSync(join(toolsDir, "node_modules", ".bin", "lefthook"))) {
  mkdirSync(toolsDir, { recursive: true });
  spawnSync(
    "npm",
    [
      "install",
      "--no-save",
      "--ignore-scripts",
      "--no-audit",
      "--no-fund",
      "--prefix",
      toolsDir,
      "lefthook@2.2.2",
      "lint-staged@17.6.1",
    ],
    { stdio: "inherit" },
  );
}
const lefthook = join(toolsDir, "node_modules", ".bin", "lefthook");
const lintStaged = join(toolsDir, "node_modules", ".bin", "lint-staged");
if (!existsSync(cpilot)) {
  process.stderr.write("dist/cpilot is missing: run `npm run build` first\n");
  process.exit(2);
}

const dir = benchDir("repo-", values.dir);
const git = (...args: string[]) =>
  execFileSync("git", args, { cwd: dir, stdio: ["ignore", "pipe", "pipe"], maxBuffer: 1 << 28 });

function makeRepo(): void {
  git("init", "-q", "-b", "main");
  git("config", "user.email", "bench@example.invalid");
  git("config", "user.name", "bench");
  git("config", "core.hooksPath", "/dev/null");
  for (let i = 0; i < TOTAL; i++) {
    const folder = join(dir, "src", `m${i % 100}`);
    if (i < 100) mkdirSync(folder, { recursive: true });
    writeFileSync(
      join(folder, `f${i}.${i % 2 === 0 ? "ts" : "md"}`),
      `export const v${i} = ${i};\n`,
    );
  }
  writeFileSync(
    join(dir, "callbacks.config.json"),
    JSON.stringify({ callbacks: [{ name: "t", pattern: "*.ts", run: ["true"], timeout: 30 }] }),
  );
  writeFileSync(
    join(dir, "lefthook.yml"),
    "pre-commit:\n  commands:\n    t:\n      glob: '*.ts'\n      run: true {staged_files}\n",
  );
  writeFileSync(join(dir, ".lintstagedrc.json"), JSON.stringify({ "*.ts": "true" }));
  writeFileSync(join(dir, ".gitignore"), ".cpilot/\n");
  git("add", "-A");
  git("commit", "-q", "-m", "bench repo");
}

interface Case {
  readonly tool: string;
  readonly cmd: string;
  readonly args: readonly string[];
  readonly env?: Record<string, string>;
}

function once(c: Case): number {
  const t = performance.now();
  const r = spawnSync(c.cmd, c.args, {
    cwd: dir,
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, NO_COLOR: "1", ...c.env },
  });
  const ms = performance.now() - t;
  if (r.status !== 0)
    throw new Error(`${c.tool} exited ${r.status}: ${r.stderr.toString().slice(0, 500)}`);
  return ms;
}

/**
 * Time the cases in interleaved rounds (two warm-up rounds), so a burst of load from
 * elsewhere on the machine hits every tool alike and the ratios stay fair.
 */
function measure(scenario: string, cases: readonly Case[]): void {
  const samples = new Map<Case, number[]>(cases.map((c) => [c, []]));
  for (let round = 0; round < RUNS + 2; round++) {
    for (const c of cases) {
      const ms = once(c);
      if (round >= 2) samples.get(c)?.push(ms);
    }
  }
  for (const c of cases) rows.push({ scenario, tool: c.tool, ms: median(samples.get(c) ?? []) });
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

function stage(n: number): void {
  git("reset", "-q");
  const paths: string[] = [];
  for (let i = 0; i < n * 2; i += 2) {
    const p = `src/m${i % 100}/f${i}.ts`;
    writeFileSync(join(dir, p), `export const v${i} = ${i + 1};\n`);
    paths.push(p);
  }
  git("add", "--", ...paths);
}

interface Row {
  scenario: string;
  tool: string;
  ms: number;
}
const rows: Row[] = [];
const EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

makeRepo();
const runtimeFloor = buildRuntimeFloor(mkdtempSync(join(tmpdir(), "cpilot-bench-floor-")));
process.on("exit", () => rmSync(dirname(runtimeFloor), { recursive: true, force: true }));
const hasLefthook = !values["no-others"] && existsSync(lefthook);
const hasLintStaged = !values["no-others"] && existsSync(lintStaged);
const QUIET_LEFTHOOK = { LEFTHOOK_QUIET: "meta,summary,execution" };
const floors: Case[] = [
  { tool: "floor: bash -c true", cmd: "bash", args: ["-c", "true"] },
  { tool: "runtime floor: empty Bun program", cmd: runtimeFloor, args: [] },
];
for (const [scenario, n] of [
  ["1 staged file", 1],
  ["1,000 staged files", 1000],
] as const) {
  stage(n);
  measure(scenario, [
    ...floors,
    { tool: "cpilot check --staged", cmd: cpilot, args: ["check", "--staged"] },
    ...(hasLefthook
      ? [
          {
            tool: "lefthook run pre-commit",
            cmd: lefthook,
            args: ["run", "pre-commit", "--no-tty"],
            env: QUIET_LEFTHOOK,
          },
        ]
      : []),
    ...(hasLintStaged
      ? [{ tool: "lint-staged --no-stash", cmd: lintStaged, args: ["--no-stash", "--quiet"] }]
      : []),
  ]);
}
// The dance: a staged file with an unstaged change on top, which check --staged sets aside
// and puts back (lint-staged's default, with its backup stash, does the same job).
git("reset", "-q");
git("checkout", "-q", "--", ".");
stage(1);
writeFileSync(join(dir, "src/m0/f0.ts"), "export const v0 = 2;\nexport const unstaged = 1;\n");
measure("1 partially staged file (unstaged change set aside)", [
  ...floors,
  { tool: "cpilot check --staged", cmd: cpilot, args: ["check", "--staged"] },
  ...(hasLintStaged
    ? [{ tool: "lint-staged (stashing)", cmd: lintStaged, args: ["--quiet"] }]
    : []),
]);
git("reset", "-q");
git("checkout", "-q", "--", ".");
measure("--all (20,000 files)", [
  ...floors,
  { tool: "cpilot check --all", cmd: cpilot, args: ["check", "--all"] },
  ...(hasLefthook
    ? [
        {
          tool: "lefthook run pre-commit --all-files",
          cmd: lefthook,
          args: ["run", "pre-commit", "--all-files", "--no-tty"],
          env: QUIET_LEFTHOOK,
        },
      ]
    : []),
  ...(hasLintStaged
    ? [
        {
          tool: `lint-staged --diff ${EMPTY_TREE.slice(0, 7)}..HEAD`,
          cmd: lintStaged,
          args: ["--no-stash", "--quiet", "--diff", `${EMPTY_TREE}..HEAD`],
        },
      ]
    : []),
]);

const out: string[] = [
  `cpilot bench: ${TOTAL} files (${TOTAL / 2} *.ts), median of ${RUNS} interleaved runs, ${new Date().toISOString()}`,
  createCostLine(dir),
  "",
];
for (const scenario of [...new Set(rows.map((r) => r.scenario))]) {
  const group = rows.filter((r) => r.scenario === scenario);
  const mine = group.find((r) => r.tool.startsWith("cpilot"))!;
  out.push(scenario);
  for (const r of group) {
    const ratio =
      r === mine
        ? ""
        : r.tool.startsWith("runtime floor")
          ? `  cpilot's own work: ${(mine.ms - r.ms).toFixed(1)} ms over this`
          : `  cpilot is ${(mine.ms / r.ms).toFixed(2)}x this`;
    out.push(`  ${r.tool.padEnd(44)} ${r.ms.toFixed(1).padStart(8)} ms${ratio}`);
  }
  out.push("");
}
process.stdout.write(`${out.join("\n")}\n`);
if (!values.keep) rmSync(dir, { recursive: true, force: true });
else process.stderr.write(`kept ${dir}\n`);
