// Times cpilot against the native lefthook and prek binaries and lint-staged as users run it
// (see _bench-peers.ts), with one `true` callback on *.ts, in generated repos of each size and
// folder shape, without and with ignored files in node_modules/: `check --all` (again on the
// same content, and after one file was edited: its checks run), `--staged`
// with 1 and 1,000 staged files and with 1 partially staged file, and the Claude Code PostToolUse hook call (the peers'
// equivalent: a run on that one file). The re-check cases swap `true` for a 300 ms job:
// `check --all` again on content already checked (recheck), and `check --staged` of a file
// the agent loop already checked (loop-staged); cpilot replays those from its result cache;
// and `check --all` in a fresh clone whose results CI put in a remote cache (remote: the real
// turborepo-remote-cache server on 127.0.0.1). Floors run in the same rounds: git's own listings, an
// empty compiled Bun program, `bash -c true`. Prints a markdown report; asserts nothing.
// Needs `npm run build` first, and GNU time (/usr/bin/time) for the peak memory.
//
// Usage: scripts/bench [--quick] [--sizes 2000,20000,100000] [--shapes 10,200]
//   [--ignored 0,50000] [--cases all,edited,staged:1,staged:1000,partial:1,hook,recheck,loop-staged,remote]
//   [--runs N] [--warmup N]
//   [--out docs/bench/DATE.md] [--dir DIR] [--keep]
// --quick: 2,000 files, both shapes, no ignored files, 3 runs: 48 s on the busy 2-core
// development machine. The full matrix has not been run there yet: 2,000 and 20,000 files
// at 7 runs took 16 min (11 of them the 20,000-file repos); the 100,000-file repos should
// take about 5 times the 20,000-file ones, so expect 1 to 2 hours at 7 runs, twice that
// at the default 15.
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { benchDir, createCostLine } from "./_bench-dir.ts";
import { type Command, measureOnce, requireGnuTime, type Sample } from "./_bench-measure.ts";
import { executableKind, findPeers } from "./_bench-peers.ts";
import { type BenchRemote, freshClone, startBenchRemote } from "./_bench-remote.ts";
import {
  addIgnored,
  CONFIGS,
  HOOK_FILE,
  makeRepo,
  type RepoShape,
  restoreConfigs,
  SLOW_JOB_S,
  stageChanges,
  stageConfigs,
  unstageAll,
  writeSlowConfigs,
} from "./_bench-repo.ts";
import { loadLine, type Row, renderReport } from "./_bench-report.ts";
import { buildRuntimeFloor } from "./_runtime-floor.ts";

const { values } = parseArgs({
  options: {
    quick: { type: "boolean" },
    sizes: { type: "string" },
    shapes: { type: "string" },
    ignored: { type: "string" },
    cases: { type: "string" },
    runs: { type: "string" },
    warmup: { type: "string" },
    out: { type: "string" },
    dir: { type: "string" },
    keep: { type: "boolean" },
  },
});
const list = (s: string) =>
  s
    .split(",")
    .map((x) => x.trim())
    .filter(Boolean);
const numbers = (s: string) => list(s).map(Number);
const quick = values.quick === true;
const SIZES = numbers(values.sizes ?? (quick ? "2000" : "2000,20000,100000"));
const SHAPES = numbers(values.shapes ?? "10,200");
const IGNORED = numbers(values.ignored ?? (quick ? "0" : "0,50000")).sort((a, b) => a - b);
const CASES = list(
  values.cases ?? "all,edited,staged:1,staged:1000,partial:1,hook,recheck,loop-staged,remote",
);
const RUNS = Number(values.runs ?? (quick ? "3" : "15"));
const WARMUP = Number(values.warmup ?? (quick ? "1" : "2"));
for (const c of CASES) {
  if (!/^(all|edited|hook|recheck|loop-staged|remote|(staged|partial):\d+)$/.test(c)) {
    process.stderr.write(
      `Cannot run case "${c}": unknown\nhint: all, edited, staged:N, partial:N, hook, recheck, loop-staged or remote\n`,
    );
    process.exit(2);
  }
}

requireGnuTime();
const repoRoot = resolve(import.meta.dir, "..");
const started = Date.now();
const loadStart = loadLine();
const peers = findPeers(repoRoot);
const work = benchDir("run-", values.dir);
const scratch = join(work, "scratch");
mkdirSync(scratch);
// A private copy: a rebuild of dist/ during the run cannot pull the binary away.
const cpilot = join(work, "cpilot");
try {
  copyFileSync(join(repoRoot, "dist", "cpilot"), cpilot);
} catch {
  process.stderr.write(`Cannot copy "dist/cpilot": it is missing\nhint: npm run build\n`);
  process.exit(2);
}
const runtimeFloor = buildRuntimeFloor(mkdtempSync(join(tmpdir(), "cpilot-bench-floor-")));
// The runtime folder (kept config values) of this run only.
const runtimeDir = mkdtempSync(join(tmpdir(), "cpilot-bench-run-"));
let remote: BenchRemote | null = null;
process.on("exit", () => {
  remote?.stop();
  rmSync(dirname(runtimeFloor), { recursive: true, force: true });
  rmSync(runtimeDir, { recursive: true, force: true });
  if (!values.keep) rmSync(work, { recursive: true, force: true });
});

interface Tool extends Command {
  readonly tool: string;
  readonly floor?: boolean;
}
const CPILOT_ENV = { CPILOT_RUNTIME_DIR: runtimeDir };
const LEFTHOOK_ENV = { LEFTHOOK_QUIET: "meta,summary,execution" };
const PREK_ENV = { PREK_HOME: join(work, "prek-home") };

const FLOORS: Tool[] = [
  { tool: "git ls-files", cmd: "git", args: ["ls-files"], floor: true },
  {
    tool: "git ls-files -o --exclude-standard",
    cmd: "git",
    args: ["ls-files", "-o", "--exclude-standard"],
    floor: true,
  },
  {
    tool: "git diff --cached --name-only",
    cmd: "git",
    args: ["diff", "--cached", "--name-only"],
    floor: true,
  },
  { tool: "empty Bun program", cmd: runtimeFloor, args: [], floor: true },
  { tool: "bash -c true", cmd: "bash", args: ["-c", "true"], floor: true },
];

function toolsFor(caseName: string, dir: string): Tool[] {
  const { lefthook, prek, lintStaged } = peers;
  const tools: Tool[] = [];
  if (caseName === "all" || caseName === "edited" || caseName === "recheck") {
    tools.push({ tool: "cpilot", cmd: cpilot, args: ["check", "--all"], env: CPILOT_ENV });
    if (lefthook)
      tools.push({
        tool: "lefthook",
        cmd: lefthook.path,
        args: ["run", "pre-commit", "--all-files", "--no-tty"],
        env: LEFTHOOK_ENV,
      });
    if (prek)
      tools.push({ tool: "prek", cmd: prek.path, args: ["run", "--all-files"], env: PREK_ENV });
  } else if (
    caseName.startsWith("staged:") ||
    caseName.startsWith("partial:") ||
    caseName === "loop-staged"
  ) {
    tools.push({ tool: "cpilot", cmd: cpilot, args: ["check", "--staged"], env: CPILOT_ENV });
    if (lefthook)
      tools.push({
        tool: "lefthook",
        cmd: lefthook.path,
        args: ["run", "pre-commit", "--no-tty"],
        env: LEFTHOOK_ENV,
      });
    if (prek) tools.push({ tool: "prek", cmd: prek.path, args: ["run"], env: PREK_ENV });
    // As a pre-commit hook runs it: the launcher, no flags (its backup stash included).
    if (lintStaged && caseName !== "loop-staged")
      tools.push({ tool: "lint-staged", cmd: lintStaged.path, args: [] });
  } else {
    const rel = HOOK_FILE;
    const payload = hookPayload(dir);
    tools.push({
      tool: "cpilot",
      cmd: cpilot,
      args: ["hook", "claude"],
      env: { ...CPILOT_ENV, AI_AGENT: "claude-code_2-1-330_cli" },
      stdinFile: payload,
      silentStdout: true,
    });
    if (lefthook)
      tools.push({
        tool: "lefthook",
        cmd: lefthook.path,
        args: ["run", "pre-commit", "--no-tty", "--file", rel],
        env: LEFTHOOK_ENV,
      });
    if (prek)
      tools.push({ tool: "prek", cmd: prek.path, args: ["run", "--files", rel], env: PREK_ENV });
  }
  return [...tools, ...FLOORS];
}

/** The Claude Code PostToolUse payload of a write to HOOK_FILE, in a file. */
function hookPayload(dir: string): string {
  const abs = join(dir, HOOK_FILE);
  const payload = join(scratch, "payload.json");
  writeFileSync(
    payload,
    JSON.stringify({
      session_id: "bench",
      transcript_path: join(dir, "t.jsonl"),
      cwd: dir,
      permission_mode: "bypassPermissions",
      hook_event_name: "PostToolUse",
      tool_name: "Write",
      tool_input: { file_path: abs, content: "x" },
      tool_response: { type: "update", filePath: abs },
      tool_use_id: "toolu_bench",
    }),
  );
  return payload;
}

const CASE_LABELS: Record<string, string> = {
  all: "check --all",
  edited: "check --all after one file was edited (its checks run)",
  recheck: `check --all again on unchanged content, a ${SLOW_JOB_S * 1000} ms job (cpilot replays it)`,
  "loop-staged": `--staged, 1 file the agent loop already checked, a ${SLOW_JOB_S * 1000} ms job`,
  remote: `check --all in a fresh clone, CI's results in the remote cache, a ${SLOW_JOB_S * 1000} ms job`,
  hook: "Claude hook call (PostToolUse, 1 file)",
};
const caseLabel = (c: string, staged: number) =>
  CASE_LABELS[c] ??
  `--staged, ${staged.toLocaleString("en-US")} file${staged === 1 ? "" : "s"}${c.startsWith("partial:") ? ", the first also changed unstaged (set aside and put back)" : ""}`;

/**
 * Interleaved rounds over every tool of one case; the order rotates each round. `before`,
 * untimed, precedes each call.
 */
function measureCase(
  repo: string,
  label: string,
  dir: string,
  tools: readonly Tool[],
  before?: () => void,
): Row[] {
  const samples = tools.map((): Sample[] => []);
  for (let round = 0; round < WARMUP + RUNS; round++) {
    for (let k = 0; k < tools.length; k++) {
      const i = (k + round) % tools.length;
      const t = tools[i];
      if (!t) continue;
      before?.();
      const s = measureOnce(t, dir, scratch, `${t.tool} (${label}, ${repo})`);
      if (round >= WARMUP) samples[i]?.push(s);
    }
  }
  return tools.map((t, i) => ({
    repo,
    caseName: label,
    tool: t.tool,
    floor: t.floor === true,
    samples: samples[i] ?? [],
  }));
}

/**
 * The remote case: the bench repo checks everything with writes on (CI), then a fresh clone
 * (another machine, reads only) runs `check --all`, each timed call with its local results
 * cleared first so every result comes from the remote (the `rm` is in cpilot's time: about
 * a `bash -c true` floor). The peers run the job itself in the clone.
 */
async function remoteCase(repo: string, dir: string): Promise<Row[]> {
  remote ??= await startBenchRemote(work);
  writeSlowConfigs(dir, false);
  rmSync(join(dir, ".cpilot", "cache", "results"), { recursive: true, force: true });
  const env = { ...CPILOT_ENV, ...remote.env };
  const ci = { ...env, CPILOT_REMOTE_CACHE_WRITE: "1" };
  measureOnce({ cmd: cpilot, args: ["check", "--all"], env: ci }, dir, scratch, "cpilot as CI");
  const clone = freshClone(dir, join(work, "clone"), CONFIGS);
  restoreConfigs(dir);
  const { lefthook, prek } = peers;
  const tools: Tool[] = [
    {
      tool: "cpilot",
      cmd: "sh",
      args: ["-c", 'rm -rf .cpilot/cache/results && exec "$0" check --all', cpilot],
      env,
    },
  ];
  if (lefthook)
    tools.push({
      tool: "lefthook",
      cmd: lefthook.path,
      args: ["run", "pre-commit", "--all-files", "--no-tty"],
      env: LEFTHOOK_ENV,
    });
  if (prek)
    tools.push({ tool: "prek", cmd: prek.path, args: ["run", "--all-files"], env: PREK_ENV });
  const label = caseLabel("remote", 0);
  progress(`${repo}: ${label}`);
  const rows = measureCase(repo, label, clone, [...tools, ...FLOORS]);
  rmSync(clone, { recursive: true, force: true });
  return rows;
}

let currentShape: RepoShape = { files: 0, perFolder: 1 };
const rows: Row[] = [];
const progress = (s: string) =>
  process.stderr.write(`[bench ${((Date.now() - started) / 1000).toFixed(0)} s] ${s}\n`);
for (const files of SIZES) {
  for (const perFolder of SHAPES) {
    currentShape = { files, perFolder };
    const dir = join(work, `repo-${files}-${perFolder}`);
    mkdirSync(dir);
    progress(`making ${files} files in ${perFolder}-file folders`);
    makeRepo(dir, currentShape);
    let ignoredSoFar = 0;
    for (const ignored of IGNORED) {
      if (ignored > ignoredSoFar) {
        progress(`adding ${ignored - ignoredSoFar} ignored files`);
        addIgnored(dir, ignored);
        ignoredSoFar = ignored;
      }
      const repo = `${files.toLocaleString("en-US")} files, ${perFolder}-file folders, ${ignored ? `${ignored.toLocaleString("en-US")} ignored in node_modules` : "no ignored files"}`;
      for (const c of CASES) {
        const count = c.match(/^(?:staged|partial):(\d+)$/)?.[1];
        const wanted = c === "loop-staged" ? 1 : count === undefined ? 0 : Number(count);
        const staged = wanted
          ? stageChanges(dir, currentShape, wanted, c.startsWith("partial:"))
          : 0;
        if (!wanted) unstageAll(dir);
        if (c === "remote") {
          rows.push(...(await remoteCase(repo, dir)));
          continue;
        }
        const slow = c === "recheck" || c === "loop-staged";
        if (slow) {
          writeSlowConfigs(dir, c === "loop-staged");
          if (c === "loop-staged") stageConfigs(dir);
          // What came before the timed runs: a check of the content as it is (recheck), or
          // the agent's hook call on the file it then stages (loop-staged).
          const before =
            c === "recheck"
              ? { cmd: cpilot, args: ["check", "--all"], env: CPILOT_ENV }
              : {
                  cmd: cpilot,
                  args: ["hook", "claude"],
                  env: { ...CPILOT_ENV, AI_AGENT: "claude-code_2-1-330_cli" },
                  stdinFile: hookPayload(dir),
                  silentStdout: true,
                };
          measureOnce(before, dir, scratch, `cpilot before ${c}`);
        }
        const label = caseLabel(c, staged);
        progress(`${repo}: ${label}`);
        // Each call sees content no check has seen: one tracked file written anew.
        let edits = 0;
        const edit =
          c === "edited"
            ? () => writeFileSync(join(dir, HOOK_FILE), `export const edit${++edits} = 1;\n`)
            : undefined;
        rows.push(...measureCase(repo, label, dir, toolsFor(c, dir), edit));
        if (slow) restoreConfigs(dir);
        if (edit !== undefined) spawnSync("git", ["checkout", "-q", "--", HOOK_FILE], { cwd: dir });
      }
      unstageAll(dir);
    }
    if (!values.keep) rmSync(dir, { recursive: true, force: true });
  }
}

const peerLines = (
  [
    ["cpilot", { label: "cpilot (dist/cpilot)", path: join(repoRoot, "dist", "cpilot") }],
    ["lefthook", peers.lefthook],
    ["prek", peers.prek],
    ["lint-staged", peers.lintStaged],
  ] as const
).map(([name, p]) =>
  p
    ? `${name === "cpilot" ? "cpilot" : p.label}: timed binary ${p.path}: ${executableKind(p.path)}${name === "lint-staged" ? `, run by Node ${nodeVersion()}` : ""}`
    : `${name}: not installed, left out`,
);
/** The Node a `#!/usr/bin/env node` launcher gets here. */
function nodeVersion(): string {
  const r = spawnSync("node", ["--version"], { encoding: "utf8" });
  return r.status === 0 ? r.stdout.trim() : "(none found)";
}
const report = renderReport(
  {
    date: new Date(started),
    runs: RUNS,
    warmup: WARMUP,
    loadStart,
    loadEnd: loadLine(),
    costLine: createCostLine(scratch),
    peerLines,
    elapsedS: (Date.now() - started) / 1000,
  },
  rows,
);
process.stdout.write(report);
if (values.out) {
  mkdirSync(dirname(resolve(values.out)), { recursive: true });
  writeFileSync(values.out, report);
  progress(`written to ${values.out}`);
}
if (values.keep) progress(`kept ${work}`);
// The remote cache server is a child that keeps the event loop alive: stop it so the
// process ends (and its exit handler cleans up).
(remote as BenchRemote | null)?.stop();
remote = null;
