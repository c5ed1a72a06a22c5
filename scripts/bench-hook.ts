// Times one Claude Code PostToolUse hook call (`dist/cpilot hook claude`, payload on stdin):
// a Write of a file one `true` callback matches, and one nothing matches, beside baselines
// measured in the same run: the floor (`bash -c true`), an empty program compiled like
// dist/cpilot (the runtime's own start and exit), `dist/cpilot --version`, and lefthook
// running one matching `true` job for one file (its native binary, installed on first use
// under node_modules/.cache/cpilot-bench/tools: see _bench-peers.ts). Builds nothing: run
// `npm run build` first. scripts/bench times the same call against lefthook and prek in
// repos of every size; this one breaks the call down (TS config, fixed cost, http hook). Reports medians and ratios; asserts nothing.
// With --compare OTHER (another build of cpilot, e.g. main's), OTHER's hook cases run in
// the same interleaved rounds, and each case also shows its mean CPU time (user + system
// of the call, from /proc/self/stat's children times: steadier than wall time on a busy
// machine).
// The "http:" cases post the same payload to the hook listener of a `cpilot run -- claude`
// session (Claude Code's http hook: no process per call; the listener's CPU is read from
// the run's /proc stat), the way Claude Code does, with the session's secret.
// Usage: bun scripts/bench-hook.ts [--runs N] [--keep] [--dir DIR] [--compare OTHER]
// (the project is built below DIR, default node_modules/.cache/cpilot-bench: see _bench-dir.ts)
import { execFileSync, spawnSync } from "node:child_process";
import {
  closeSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { benchDir, createCostLine } from "./_bench-dir.ts";
import { CLOCK_TICKS, childrenCpuMs, stdinFile } from "./_bench-measure.ts";
import { findPeers } from "./_bench-peers.ts";
import { buildRuntimeFloor } from "./_runtime-floor.ts";

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "41" },
    keep: { type: "boolean" },
    dir: { type: "string" },
    compare: { type: "string" },
  },
});
const RUNS = Number(values.runs);
const repoRoot = resolve(import.meta.dir, "..");
const built = join(repoRoot, "dist", "cpilot");
if (!existsSync(built)) {
  process.stderr.write("dist/cpilot is missing: run `npm run build` first\n");
  process.exit(2);
}
// lefthook's native binary, not node_modules/.bin/lefthook (a Node script that starts it).
const lefthook = findPeers(repoRoot).lefthook?.path;

const dir = benchDir("hook-", values.dir);
// A private copy: a rebuild of dist/ during the run cannot pull the binary away.
const cpilot = join(dir, "cpilot");
copyFileSync(built, cpilot);
const git = (...args: string[]) => execFileSync("git", args, { cwd: dir, stdio: "ignore" });
git("init", "-q", "-b", "main");
git("config", "core.hooksPath", "/dev/null");
writeFileSync(
  join(dir, "callbacks.config.json"),
  JSON.stringify({
    callbacks: [{ name: "t", pattern: "*.ts", run: ["true"], timeout: 30, per: "file" }],
  }),
);
writeFileSync(
  join(dir, "lefthook.yml"),
  "post-edit:\n  commands:\n    t:\n      glob: '*.ts'\n      run: true {files}\n",
);
writeFileSync(join(dir, "a.ts"), "export const a = 1;\n");
writeFileSync(join(dir, "a.md"), "# a\n");
// The same project with the config most users write: callbacks.config.ts.
const tsProject = join(dir, "ts-config");
mkdirSync(tsProject);
writeFileSync(
  join(tsProject, "callbacks.config.ts"),
  [
    'import { defineConfig } from "cpilot";',
    "",
    "export default defineConfig({",
    '  callbacks: [{ name: "t", pattern: "*.ts", run: ["true"], timeout: 30, per: "file" }],',
    "});",
    "",
  ].join("\n"),
);
writeFileSync(join(tsProject, "a.ts"), "export const a = 1;\n");

const payload = (file: string, project = dir) =>
  JSON.stringify({
    session_id: "bench",
    transcript_path: join(project, "t.jsonl"),
    cwd: project,
    permission_mode: "bypassPermissions",
    hook_event_name: "PostToolUse",
    tool_name: "Write",
    tool_input: { file_path: join(project, file), content: "x" },
    tool_response: { type: "update", filePath: join(project, file) },
    tool_use_id: "toolu_bench",
  });

// The private folder of kept config values: this run's own.
const runtimeDir = mkdtempSync(join(tmpdir(), "cpilot-bench-run-"));

interface Case {
  name: string;
  cmd: string;
  args: string[];
  input?: string;
  env?: Record<string, string>;
  /** Posted to the session's hook listener instead of started as a process. */
  http?: true;
}
const cases: Case[] = [
  { name: "floor: bash -c true", cmd: "bash", args: ["-c", "true"] },
  { name: "runtime floor: empty Bun program", cmd: buildRuntimeFloor(dir), args: [] },
  { name: "dist/cpilot --version", cmd: cpilot, args: ["--version"] },
  { name: "hook, empty stdin (fixed cost)", cmd: cpilot, args: ["hook", "claude"], input: "" },
  {
    name: "hook PostToolUse, nothing matches",
    cmd: cpilot,
    args: ["hook", "claude"],
    input: payload("a.md"),
  },
  {
    name: "hook PostToolUse, one `true` callback",
    cmd: cpilot,
    args: ["hook", "claude"],
    input: payload("a.ts"),
  },
  {
    name: "same, config in callbacks.config.ts",
    cmd: cpilot,
    args: ["hook", "claude"],
    input: payload("a.ts", tsProject),
  },
];
// A `cpilot run -- claude` session whose "claude" only says its version, notes the
// listener's address and secret, and waits: the listener is what the http cases call.
const fakeClaude = join(dir, "claude");
const sessionInfo = join(dir, "session-info");
writeFileSync(
  fakeClaude,
  `#!/bin/bash\nif [ "$1" = --version ]; then echo "2.1.330 (Claude Code)"; exit 0; fi\nprintf '%s\\n%s\\n' "$(cat "$2")" "$CPILOT_HOOK_SECRET" > "${sessionInfo}.tmp" && mv "${sessionInfo}.tmp" "${sessionInfo}"\nexec sleep 100000\n`,
  { mode: 0o755 },
);
const session = Bun.spawn([cpilot, "run", "--", fakeClaude], {
  cwd: dir,
  env: { ...process.env, CPILOT_RUNTIME_DIR: runtimeDir },
  stdio: ["ignore", "ignore", "inherit"],
});
// A bench that fails midway must not leave the session (and its stand-in claude) behind.
process.on("exit", () => session.kill("SIGTERM"));
const listener = await (async () => {
  const deadline = Date.now() + 20_000;
  while (!existsSync(sessionInfo)) {
    if (Date.now() > deadline) throw new Error("cpilot run did not start its session in 20 s");
    await Bun.sleep(20);
  }
  const text = readFileSync(sessionInfo, "utf8");
  const secret = text.trimEnd().split("\n").at(-1) ?? "";
  const settings = JSON.parse(text.slice(0, text.lastIndexOf(secret)));
  const hook = settings.hooks.PostToolUse[0].hooks[0];
  if (hook.type !== "http") throw new Error("the session's PostToolUse hook is not an http hook");
  const headers: Record<string, string> = { "content-type": "application/json" };
  for (const [name, value] of Object.entries(hook.headers as Record<string, string>))
    headers[name] = value.replace("$CPILOT_HOOK_SECRET", secret);
  return { url: hook.url as string, headers };
})();
cases.push(
  { name: "http: nothing matches", cmd: "", args: [], input: payload("a.md"), http: true },
  { name: "http: one `true` callback", cmd: "", args: [], input: payload("a.ts"), http: true },
  {
    name: "http: same, callbacks.config.ts",
    cmd: "",
    args: [],
    input: payload("a.ts", tsProject),
    http: true,
  },
);

/** CPU time (ms) of the session's `cpilot run` process and its waited-for children so far. */
function sessionCpuMs(): number {
  try {
    const stat = readFileSync(`/proc/${session.pid}/stat`, "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // utime, stime, cutime, cstime (fields 14-17 of proc(5))
    return ((Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) * 1000) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}

/** One call as Claude Code makes it: a POST with the payload and the secret header. */
async function onceHttp(c: Case): Promise<number> {
  const cpu = sessionCpuMs();
  const t = performance.now();
  const res = await fetch(listener.url, {
    method: "POST",
    headers: listener.headers,
    body: c.input ?? "",
  });
  const body = await res.text();
  const ms = performance.now() - t;
  cpuTotals.set(c.name, (cpuTotals.get(c.name) ?? 0) + sessionCpuMs() - cpu);
  if (res.status !== 200) throw new Error(`${c.name}: status ${res.status}: ${body.slice(0, 300)}`);
  if (body.trim() !== "")
    throw new Error(`${c.name} answered ${body.slice(0, 300)}: expected nothing`);
  return ms;
}

if (values.compare !== undefined) {
  // A private copy of the other build too, beside ours.
  const other = join(dir, "cpilot-other");
  copyFileSync(resolve(values.compare), other);
  for (const c of cases.filter((c) => c.cmd === cpilot && !c.http))
    cases.push({ ...c, name: `OTHER ${c.name}`.slice(0, 40), cmd: other });
}
if (lefthook) {
  cases.push({
    name: "lefthook run, one `true` job",
    cmd: lefthook,
    args: ["run", "post-edit", "--no-tty", "--file", "a.ts"],
    env: { LEFTHOOK_QUIET: "meta,summary,execution" },
  });
}

/**
 * The payload reaches stdin from a file: Bun's spawnSync closes an `input` pipe late (about
 * 4 ms here), which would be charged to cpilot; an agent writes and closes at once.
 */
const inputFiles = new Map<string, string>();
function stdinFor(c: Case): number {
  return stdinFile(dir, inputFiles, c.name, c.input ?? "");
}

const cpuTotals = new Map<string, number>();

function once(c: Case): number {
  const stdin = stdinFor(c);
  const cpu = childrenCpuMs();
  const t = performance.now();
  const r = spawnSync(c.cmd, c.args, {
    cwd: dir,
    stdio: [stdin, "pipe", "pipe"],
    env: {
      ...process.env,
      NO_COLOR: "1",
      AI_AGENT: "claude-code_2-1-330_cli",
      CPILOT_RUNTIME_DIR: runtimeDir,
      ...c.env,
    },
  });
  const ms = performance.now() - t;
  cpuTotals.set(c.name, (cpuTotals.get(c.name) ?? 0) + childrenCpuMs() - cpu);
  closeSync(stdin);
  if (r.status !== 0) {
    throw new Error(`${c.name} exited ${r.status}: ${String(r.stderr).slice(0, 500)}`);
  }
  if (c.input && String(r.stdout).trim() !== "") {
    throw new Error(`${c.name} answered ${String(r.stdout).slice(0, 300)}: expected nothing`);
  }
  return ms;
}

for (const c of cases.filter((c) => c.http)) for (let i = 0; i < 30; i++) await onceHttp(c);

// Interleaved rounds, so load from other processes hits every case alike; 3 warm-up rounds.
const samples = new Map<string, number[]>(cases.map((c) => [c.name, []]));
for (let round = 0; round < RUNS + 3; round++) {
  if (round === 3) cpuTotals.clear();
  for (const c of cases) {
    const ms = c.http ? await onceHttp(c) : once(c);
    if (round >= 3) samples.get(c.name)?.push(ms);
  }
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
};
const med = new Map([...samples].map(([name, xs]) => [name, median(xs)]));
const floor = med.get("floor: bash -c true") ?? 1;
const start = med.get("dist/cpilot --version") ?? 1;
const lh = lefthook ? med.get("lefthook run, one `true` job") : undefined;

const out = [
  `cpilot hook bench: median of ${RUNS} interleaved runs, ${new Date().toISOString()}`,
  createCostLine(dir),
  "",
  `${"case".padEnd(40)} ${"median".padStart(9)} ${"× floor".padStart(8)} ${"× start".padStart(8)} ${"CPU mean".padStart(9)}${lh ? ` ${"× lefthook".padStart(10)}` : ""}`,
];
for (const [name, ms] of med) {
  const cells = [
    name.padEnd(40),
    `${ms.toFixed(1)} ms`.padStart(9),
    (ms / floor).toFixed(2).padStart(8),
    (ms / start).toFixed(2).padStart(8),
    `${((cpuTotals.get(name) ?? 0) / RUNS).toFixed(1)} ms`.padStart(9),
  ];
  if (lh) cells.push((ms / lh).toFixed(2).padStart(10));
  out.push(cells.join(" "));
}
out.push("");
const hook = med.get("hook PostToolUse, one `true` callback") ?? 0;
const none = med.get("hook PostToolUse, nothing matches") ?? 0;
out.push(`one matching callback: ${hook.toFixed(1)} ms (target < 15 ms)`);
if (lh) out.push(`vs lefthook: ${(hook / lh).toFixed(2)}× its per-call time (target < 0.20)`);
else out.push("lefthook not installed: compare with the floor and the binary's start above");
out.push(`nothing matches: ${(none - start).toFixed(1)} ms over the binary's start`);
const http = med.get("http: one `true` callback") ?? 0;
const httpNone = med.get("http: nothing matches") ?? 0;
out.push(
  `through cpilot run's http hook: ${http.toFixed(1)} ms one matching callback (${(hook - http).toFixed(1)} ms less than the command hook, ${(http / hook).toFixed(2)}×), ${httpNone.toFixed(1)} ms nothing matches; CPU ${((cpuTotals.get("http: one `true` callback") ?? 0) / RUNS).toFixed(1)} ms against ${((cpuTotals.get("hook PostToolUse, one `true` callback") ?? 0) / RUNS).toFixed(1)} ms`,
);
const runtime = med.get("runtime floor: empty Bun program") ?? 0;
out.push(
  `cpilot's own work in the matching call: ${(hook - runtime).toFixed(1)} ms over the runtime floor (${runtime.toFixed(1)} ms: any compiled Bun program starting and exiting here)`,
);
process.stdout.write(`${out.join("\n")}\n`);
session.kill("SIGTERM");
await session.exited;
rmSync(runtimeDir, { recursive: true, force: true });
if (!values.keep) rmSync(dir, { recursive: true, force: true });
else process.stdout.write(`kept ${dir}\n`);
