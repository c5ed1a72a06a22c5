// `npm run test:quick`: the whole suite minus the slow end-to-end files, picked by a rule,
// not by a hand-kept list, so a new test file is in the quick run unless it matches:
//   - it starts a real agent CLI (claude, gemini): it imports one of REAL_AGENT_LAUNCHERS;
//   - it lives under SLOW_PATHS (release builds, the benchmark, the attack loops, Deno).
// Everything else runs. `npm test` stays the whole suite.
//
// Usage: bun scripts/test-quick.ts [--list] [extra bun test flags, e.g. --parallel=1]
//   --list: print the chosen files and the skipped ones with the reason, run nothing.
//   --update-timings: run, then write each file's duration to tests/timings.json (commit it
//   when files were added or got much slower: it only orders the run, slowest first).
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join, relative, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "..");

/** Each file's duration in a past run (bun's --timings format): the slowest start first. */
const TIMINGS = "tests/timings.json";

/** Test helpers that start the real agent binaries from node_modules (matched by file name). */
const REAL_AGENT_LAUNCHERS = [
  "claude-cli.ts",
  "claude-project.ts",
  "_subagent-session.ts",
  "_gemini-cli.ts",
  "_codex-cli.ts",
  "_opencode-cli.ts",
  "_copilot-cli.ts",
  "_qwen-cli.ts",
];

/** Folders and files whose tests are slow by nature (prefix match on the repo-relative path). */
const SLOW_PATHS = [
  "tests/release/", // builds and runs release archives
  "tests/scripts/bench.test.ts", // runs the benchmark
  "tests/attacks/", // loops of adversarial edits against the compiled binary
  "tests/deno/", // starts Deno on the core
];

function testFiles(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...testFiles(path));
    else if (entry.name.endsWith(".test.ts")) found.push(relative(ROOT, path));
  }
  return found.sort();
}

/** Why `file` is left out of the quick run, or undefined when it belongs in it. */
export function slowReason(file: string, source: string): string | undefined {
  const path = file.split("\\").join("/");
  const slowPath = SLOW_PATHS.find((prefix) => path.startsWith(prefix));
  if (slowPath) return `under ${slowPath}`;
  const launcher = REAL_AGENT_LAUNCHERS.find((name) =>
    new RegExp(`from "(?:[^"]*/)?${name.replace(/[.]/g, "\\.")}"`).test(source),
  );
  if (launcher) return `starts a real agent CLI (imports ${launcher})`;
  return undefined;
}

function main(args: string[]): number {
  const quick: string[] = [];
  const skipped: string[] = [];
  for (const file of testFiles(join(ROOT, "tests"))) {
    const reason = slowReason(file, readFileSync(join(ROOT, file), "utf8"));
    if (reason) skipped.push(`${file}: ${reason}`);
    else quick.push(file);
  }
  if (args.includes("--list")) {
    process.stdout.write(`quick (${quick.length}):\n${quick.map((f) => `  ${f}\n`).join("")}`);
    process.stdout.write(
      `skipped (${skipped.length}):\n${skipped.map((f) => `  ${f}\n`).join("")}`,
    );
    return 0;
  }
  // Files in parallel, two workers per core: most of a file's time is waiting on the
  // processes it starts (an idle server's timeout, a watcher's quiet period), and each
  // worker has its own runtime folder (tests/setup.ts). On the busy 2-core machine (load
  // average 8 to 10): 142 s one file at a time, 128 s with two workers, 69 to 75 s with four.
  const parallel = args.some((a) => a.startsWith("--parallel"))
    ? []
    : [`--parallel=${Math.min(16, 2 * availableParallelism())}`];
  // The longest files first, so none of them starts last and runs alone at the end.
  const timings =
    args.some((a) => a.startsWith("--timings")) || !existsSync(join(ROOT, TIMINGS))
      ? []
      : [`--timings=${TIMINGS}`];
  // "./" makes bun read each argument as a path, not as a name filter.
  const run = spawnSync(
    process.execPath,
    ["test", "--timeout", "60000", ...parallel, ...timings, ...args, ...quick.map((f) => `./${f}`)],
    { cwd: ROOT, stdio: "inherit" },
  );
  return run.status ?? 1;
}

if (import.meta.main) process.exit(main(process.argv.slice(2)));
