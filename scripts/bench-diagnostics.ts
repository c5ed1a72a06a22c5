// Times reading checker output as diagnostics, in process, on 10,000-line outputs: tsc,
// eslint (stylish), cargo (human, with code frames), a mix of formats, and plain noise that
// no format matches (every detector and the fallback read it all). Then the whole step a run
// pays: read the log, parse, compare with the baseline, save it (in a temp git repo), in
// process as `cpilot check` reads it (5,000 kept), then in a fresh process as a hook call
// reads it (its first HOOK_DIAGNOSTICS, compared, nothing saved). Last, what a real hook call pays for it: `dist/cpilot hook claude` on a project
// whose callback prints the dense output, beside the same project with `format: "none"`
// (run `npm run build` first; skipped without dist/cpilot). Reports medians; asserts nothing.
// Usage: bun scripts/bench-diagnostics.ts [--runs N] [--lines N]
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { HOOK_READ } from "../src/diagnostics/diagnose-finished.ts";
import { diagnoseRun } from "../src/diagnostics/diagnose-run.ts";
import { parseDiagnostics } from "../src/diagnostics/parse-output.ts";

const { values } = parseArgs({
  options: { runs: { type: "string", default: "21" }, lines: { type: "string", default: "10000" } },
});
const RUNS = Number(values.runs);
const LINES = Number(values.lines);
const fixtures = resolve(import.meta.dir, "..", "tests", "diagnostics", "fixtures");
/** The dense logs' source file as it was for each of them (set below). */
let sources: string[] = [];

/** `count` lines made by repeating a real output, its line numbers varied so nothing dedupes. */
function grow(fixture: string, count: number): string {
  const lines = readFileSync(join(fixtures, fixture), "utf8").split("\n");
  const out: string[] = [];
  for (let i = 0; out.length < count; i++) {
    const line = lines[i % lines.length] as string;
    const round = Math.floor(i / lines.length);
    out.push(
      line.replace(
        /(\d+)([,:]\d+)/,
        (_m, n: string, rest: string) => `${Number(n) + round}${rest}`,
      ),
    );
  }
  return out.join("\n");
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
}

/**
 * Median CPU time of `fn` in ms (user + system: on a machine busy with other work, wall
 * time measures the neighbours), and the first call's, before the JIT warmed up, as a
 * one-shot hook process pays it.
 */
function time(fn: () => unknown): { first: number; warm: number } {
  const cpu = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  let t = cpu();
  fn();
  const first = cpu() - t;
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    t = cpu();
    fn();
    samples.push(cpu() - t);
  }
  return { first, warm: median(samples) };
}

const show = (t: { first: number; warm: number }) =>
  `${t.warm.toFixed(2).padStart(7)} ms  (first call ${t.first.toFixed(1)} ms)`;

const base = { root: "/tmp/diag-sample", cwd: "/tmp/diag-sample" };
const cases: [string, string][] = [
  ["tsc", grow("tsc-7.0.2.txt", LINES)],
  ["eslint stylish", grow("eslint-10.15.0-stylish.txt", LINES)],
  ["cargo (code frames)", grow("cargo-clippy-1.95.0-lints.txt", LINES)],
  [
    "mixed formats",
    ["tsc-7.0.2.txt", "eslint-10.15.0-stylish.txt", "flake8-5.0.4.txt", "pytest-9.0.3.txt"]
      .map((f) => grow(f, LINES / 4))
      .join("\n"),
  ],
  [
    "noise, nothing parses",
    Array.from({ length: LINES }, (_, i) => `progress ${i}: building module number ${i}`).join(
      "\n",
    ),
  ],
];

console.log(`parsing ${LINES}-line outputs, CPU time, median of ${RUNS} runs:`);
for (const [name, text] of cases) {
  let found = 0;
  const t = time(() => {
    found = parseDiagnostics(text, base).length;
  });
  console.log(`  ${name.padEnd(24)} ${show(t)}  ${found} diagnostics`);
}

/**
 * The whole step in a new process each time, as a hook call (a process of its own) pays
 * it: nothing compiled yet, the baseline a previous run saved. The process first does
 * what the run itself did before it gets there (read the config, register the run with
 * its start time, write its log and record in .cpilot), so the one-time set-up of those
 * helpers is not counted; the baseline's own lock is. Best and median CPU time of the step alone.
 */
function freshProcess(
  root: string,
  logs: readonly string[],
  callback: string,
): { best: number; median: number; n: number } {
  const src = (path: string) => JSON.stringify(resolve(import.meta.dir, "..", "src", path));
  const script = `
    import { readFileSync } from "node:fs";
    import { diagnoseRun } from ${src("diagnostics/diagnose-run.ts")};
    import { writeFileAtomic } from ${src("util/atomic-write.ts")};
    import { ownStartTime } from ${src("platform/process-start.ts")};
    import { stateDir } from ${src("util/state-dir.ts")};
    const before = stateDir(${JSON.stringify(root)}, "bench");
    ownStartTime();
    writeFileAtomic(before + "/record.json", "{}", { durable: false });
    JSON.parse(readFileSync(before + "/record.json", "utf8"));
    const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
    const t = cpu();
    diagnoseRun({
      batch: { root: ${JSON.stringify(root)}, files: [{ path: "a.ts", kind: "modified" }], origin: { surface: "hook" } },
      callback: ${JSON.stringify(callback)}, format: undefined, cwd: ${JSON.stringify(root)}, files: ["a.ts"],
      logPath: process.argv[1], status: "failed", ...${JSON.stringify(HOOK_READ)},
    });
    console.log(cpu() - t);`;
  const n = Math.max(5, Math.min(RUNS, 11));
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    writeFileSync(join(root, "a.ts"), sources[i % 2] as string);
    samples.push(
      Number(
        execFileSync(process.execPath, ["-e", script, logs[i % logs.length] as string], {
          encoding: "utf8",
        }),
      ),
    );
  }
  return { best: Math.min(...samples), median: median(samples), n };
}

/**
 * The same step in a fresh process, split: reading the log, parsing, comparing with the
 * baseline (and saving it), the agent's view. Best of each, in ms, to see where a hook
 * call's time goes.
 */
function freshSteps(root: string, logs: readonly string[]): string {
  const src = (path: string) => JSON.stringify(resolve(import.meta.dir, "..", "src", path));
  const script = `
    import { withColdJit } from ${src("diagnostics/_cold-jit.ts")};
    import { readLogBounded } from ${src("diagnostics/_read-log.ts")};
    import { parseOutput } from ${src("diagnostics/parse-output.ts")};
    import { compareWithBaseline } from ${src("diagnostics/baseline/compare.ts")};
    import { agentView } from ${src("diagnostics/agent-view.ts")};
    const root = ${JSON.stringify(root)};
    const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
    const t = [cpu()];
    // As diagnoseRun runs them: under the JIT policy of a process's first steps.
    const marked = withColdJit(() => {
      const log = readLogBounded(process.argv[1], ${JSON.stringify(HOOK_READ.bounds)}); t.push(cpu());
      const parsed = parseOutput(log.text, { root, cwd: root, limit: ${HOOK_READ.limit} }); t.push(cpu());
      const found = parsed.diagnostics;
      const cut = parsed.cut || log.skipped;
      const out = compareWithBaseline({ root, callback: "steps", diagnostics: found,
        files: ["a.ts"], edited: new Set(["a.ts"]), fromCheck: false, inPlace: true, partial: cut }); t.push(cpu());
      return out;
    });
    agentView(marked, { edited: ["a.ts"] }); t.push(cpu());
    console.log(t.slice(1).map((x, i) => x - t[i]).join(" "));`;
  const n = Math.max(5, Math.min(RUNS, 11));
  const best = [Infinity, Infinity, Infinity, Infinity];
  for (let i = 0; i < n; i++) {
    writeFileSync(join(root, "a.ts"), sources[i % 2] as string);
    const out = execFileSync(process.execPath, ["-e", script, logs[i % logs.length] as string], {
      encoding: "utf8",
    });
    out
      .trim()
      .split(" ")
      .forEach((x, k) => {
        best[k] = Math.min(best[k] as number, Number(x));
      });
  }
  const [read, parse, compare, view] = best.map((x) => x.toFixed(1));
  return `read ${read}, parse ${parse}, baseline ${compare}, agent view ${view} ms (best of ${n} each)`;
}

// The whole step after a run: read the log, parse, compare with the baseline, save. Runs
// alternate between two logs whose diagnostics sit one line apart, as after an edit above
// them (the source file alternates with them: the second has a line added on top), so each
// run has a baseline to compare with and a changed one to save.
const root = mkdtempSync(join(tmpdir(), "cpilot-bench-diag-"));
try {
  execFileSync("git", ["init", "-q"], { cwd: root });
  const source = Array.from({ length: 2000 }, (_, i) => `const v${i}: number = "x";`).join("\n");
  // The source each log is of: the second has a line added on top (the edit that moved
  // every diagnostic one line down), so a diagnostic still sits on its own line's text.
  sources = [source, `// a line added above\n${source}`];
  writeFileSync(join(root, "a.ts"), source);
  /** Two logs of `count` lines, the second's diagnostics one line further down. */
  const logs = (name: string, count: number, line: (i: number, shift: number) => string) =>
    [0, 1].map((shift) => {
      const path = join(root, `${name}-${shift}.log`);
      writeFileSync(path, Array.from({ length: count }, (_, i) => line(i, shift)).join("\n"));
      return path;
    });
  const dense = logs(
    "dense",
    LINES,
    (i, shift) =>
      `a.ts(${(i % 1999) + 1 + shift},7): error TS2322: Type 'string' is not assignable (${i}).`,
  );
  // What most runs look like: a few dozen diagnostics among a tool's other lines.
  const small = logs("small", 200, (i, shift) =>
    i % 5 === 0
      ? `a.ts(${i + 1 + shift},7): error TS2322: Type 'string' is not assignable to type 'number'.`
      : `a line of the tool's own (${i})`,
  );
  let round = 0;
  const run = (callback: string, paths: readonly string[]) => {
    writeFileSync(join(root, "a.ts"), sources[round % 2] as string);
    return diagnoseRun({
      batch: { root, files: [{ path: "a.ts", kind: "modified" }], origin: { surface: "hook" } },
      callback,
      format: undefined,
      cwd: root,
      files: ["a.ts"],
      logPath: paths[round++ % 2] as string,
      status: "failed",
    });
  };
  console.log(
    `  ${"log+parse+baseline".padEnd(24)} ${show(time(() => run("dense", dense)))}  ${LINES} lines, 5,000 kept, in one 2,000-line file`,
  );
  const showFresh = (name: string, f: ReturnType<typeof freshProcess>, what: string) =>
    console.log(
      `  ${name.padEnd(24)} ${f.best.toFixed(2).padStart(7)} ms  (best of ${f.n}; median ${f.median.toFixed(1)} ms) ${what}`,
    );
  showFresh(
    "hook's share, fresh",
    freshProcess(root, dense, "dense"),
    "as a one-shot hook pays it",
  );
  console.log(`  ${"  per step".padEnd(24)} ${freshSteps(root, dense)}`);
  run("small", small);
  showFresh("200 lines, fresh process", freshProcess(root, small, "small"), "40 diagnostics");
  hookCalls(dense);
} finally {
  rmSync(root, { recursive: true, force: true });
}

/**
 * CPU time of whole `cpilot hook claude` calls (the binary and the callback it runs, as
 * the kernel counts them) on a project whose callback prints the dense logs in turn, beside
 * the same project and output with `format: "none"`: what reading diagnostics adds to a
 * hook call. The two alternate, so a busy machine slows both alike; best and median.
 */
function hookCalls(logs: readonly string[]): void {
  const binary = resolve(import.meta.dir, "..", "dist", "cpilot");
  if (!existsSync(binary)) {
    console.log("  (no dist/cpilot: `npm run build` first for the hook calls)");
    return;
  }
  const project = (format: string | undefined) => {
    const dir = mkdtempSync(join(tmpdir(), "cpilot-bench-hook-diag-"));
    execFileSync("git", ["init", "-q"], { cwd: dir });
    for (const [i, log] of logs.entries())
      writeFileSync(join(dir, `dense-${i}.log`), readFileSync(log));
    writeFileSync(join(dir, "a.ts"), readFileSync(join(root, "a.ts")));
    // Each call prints the other log: the baseline has a changed run to compare and save.
    const run = "n=$(cat .n 2>/dev/null || echo 0); echo $((1-n)) > .n; cat dense-$n.log; exit 1";
    const callback = { name: "types", pattern: "*.ts", run, timeout: 60 };
    writeFileSync(
      join(dir, "callbacks.config.json"),
      JSON.stringify({ callbacks: [format ? { ...callback, format } : callback] }),
    );
    return dir;
  };
  const call = (dir: string) => {
    // The source of the log this call's callback prints (it alternates, by .n).
    const next = existsSync(join(dir, ".n")) ? Number(readFileSync(join(dir, ".n"), "utf8")) : 0;
    writeFileSync(join(dir, "a.ts"), sources[next === 1 ? 1 : 0] as string);
    const payload = {
      session_id: "s1",
      cwd: dir,
      hook_event_name: "PostToolBatch",
      tool_calls: [
        {
          tool_name: "Write",
          tool_input: { file_path: join(dir, "a.ts"), content: "x" },
          tool_use_id: "toolu_1",
          tool_response: "ok",
        },
      ],
    };
    const r = Bun.spawnSync([binary, "hook", "claude"], {
      cwd: dir,
      stdin: Buffer.from(JSON.stringify(payload)),
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "",
        AI_AGENT: "claude-code_2-1-330_cli",
      },
    });
    return Number(r.resourceUsage?.cpuTime.total ?? 0) / 1000;
  };
  const parsed = project(undefined);
  const none = project("none");
  try {
    // A baseline to compare with, and warm file caches.
    for (const dir of [parsed, none, parsed, none]) call(dir);
    const n = Math.max(9, Math.min(RUNS, 21));
    const a: number[] = [];
    const b: number[] = [];
    for (let i = 0; i < n; i++) {
      a.push(call(parsed));
      b.push(call(none));
    }
    const best = Math.min(...a) - Math.min(...b);
    console.log(
      `  ${"hook call, dense output".padEnd(24)} ${best.toFixed(2).padStart(7)} ms  (best of ${n} against format "none"; medians ${median(a).toFixed(1)} and ${median(b).toFixed(1)} ms) dist/cpilot`,
    );
  } finally {
    rmSync(parsed, { recursive: true, force: true });
    rmSync(none, { recursive: true, force: true });
  }
}
