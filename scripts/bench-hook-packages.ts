// Times one Claude Code PostToolUse hook call (`dist/cpilot hook claude`) in a workspace
// whose packages each have their own callbacks.config.json, as the package count grows:
// 1, 10 and 50 packages (or --packages), a root config beside them. Two edits per size: a
// Write in one package (its own config judges it) and a Write of a root file (the root's
// config judges it, and leaves the packages to theirs). Interleaved rounds, medians and the
// mean CPU time of the call; asserts nothing. Builds nothing: run `npm run build` first.
// Usage: bun scripts/bench-hook-packages.ts [--runs N] [--packages 1,10,50] [--keep] [--dir DIR]
import { execFileSync, spawnSync } from "node:child_process";
import {
  closeSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { benchDir, createCostLine } from "./_bench-dir.ts";
import { childrenCpuMs, stdinFile } from "./_bench-measure.ts";

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "31" },
    packages: { type: "string", default: "1,10,50" },
    keep: { type: "boolean" },
    dir: { type: "string" },
  },
});
const RUNS = Number(values.runs);
const SIZES = values.packages.split(",").map(Number);
const built = join(resolve(import.meta.dir, ".."), "dist", "cpilot");
if (!existsSync(built)) {
  process.stderr.write("dist/cpilot is missing: run `npm run build` first\n");
  process.exit(2);
}
const dir = benchDir("hook-packages-", values.dir);
const cpilot = join(dir, "cpilot");
copyFileSync(built, cpilot);
const runtimeDir = mkdtempSync(join(tmpdir(), "cpilot-bench-run-"));

const config = (pattern: string) =>
  JSON.stringify({
    callbacks: [{ name: "t", pattern, run: ["true"], timeout: 30, per: "file" }],
  });

/** A committed npm workspace of `n` packages, each with its own config and one source file. */
function workspace(n: number): string {
  const root = join(dir, `ws-${n}`);
  mkdirSync(root);
  const write = (path: string, text: string) => {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  write("package.json", JSON.stringify({ name: "ws", private: true, workspaces: ["packages/*"] }));
  write("callbacks.config.json", config("*.md"));
  write("README.md", "# ws\n");
  for (let i = 0; i < n; i++) {
    write(`packages/p${i}/package.json`, JSON.stringify({ name: `p${i}` }));
    write(`packages/p${i}/callbacks.config.json`, config("*.ts"));
    write(`packages/p${i}/src/a.ts`, "export const a = 1;\n");
  }
  const git = (...args: string[]) => execFileSync("git", args, { cwd: root, stdio: "ignore" });
  git("init", "-q", "-b", "main");
  git("config", "core.hooksPath", "/dev/null");
  git("add", "-A");
  git("-c", "user.email=b@example.invalid", "-c", "user.name=b", "commit", "-qm", "ws");
  return root;
}

interface Case {
  readonly name: string;
  readonly cwd: string;
  readonly input: string;
}

const payload = (root: string, file: string) =>
  JSON.stringify({
    session_id: "bench",
    transcript_path: join(root, "t.jsonl"),
    cwd: root,
    permission_mode: "bypassPermissions",
    hook_event_name: "PostToolUse",
    tool_name: "Write",
    tool_input: { file_path: join(root, file), content: "x" },
    tool_response: { type: "update", filePath: join(root, file) },
    tool_use_id: "toolu_bench",
  });

const cases: Case[] = [];
for (const n of SIZES) {
  const root = workspace(n);
  cases.push({
    name: `${n} packages, edit in a package`,
    cwd: root,
    input: payload(root, "packages/p0/src/a.ts"),
  });
  cases.push({
    name: `${n} packages, edit at the root`,
    cwd: root,
    input: payload(root, "README.md"),
  });
}

const inputs = new Map<string, string>();
const cpu = new Map<string, number>();
/** One call; the payload reaches stdin from a file, as an agent writes and closes it. */
function once(c: Case): number {
  const stdin = stdinFile(dir, inputs, c.name, c.input);
  const before = childrenCpuMs();
  const t = performance.now();
  const r = spawnSync(cpilot, ["hook", "claude"], {
    cwd: c.cwd,
    stdio: [stdin, "pipe", "pipe"],
    env: { ...process.env, NO_COLOR: "1", CPILOT_RUNTIME_DIR: runtimeDir },
  });
  const ms = performance.now() - t;
  cpu.set(c.name, (cpu.get(c.name) ?? 0) + childrenCpuMs() - before);
  closeSync(stdin);
  if (r.status !== 0 || String(r.stdout).trim() !== "")
    throw new Error(`${c.name}: exit ${r.status}: ${String(r.stdout)}${String(r.stderr)}`);
  return ms;
}

const samples = new Map<string, number[]>(cases.map((c) => [c.name, []]));
for (let round = 0; round < RUNS + 3; round++) {
  if (round === 3) cpu.clear();
  for (const c of cases) {
    const ms = once(c);
    if (round >= 3) samples.get(c.name)?.push(ms);
  }
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
};
const out = [
  `cpilot hook, per-package configs: median of ${RUNS} interleaved runs, ${new Date().toISOString()}`,
  createCostLine(dir),
  "",
  `${"case".padEnd(36)} ${"median".padStart(9)} ${"CPU mean".padStart(9)}`,
];
for (const [name, xs] of samples)
  out.push(
    `${name.padEnd(36)} ${`${median(xs).toFixed(1)} ms`.padStart(9)} ${`${((cpu.get(name) ?? 0) / RUNS).toFixed(1)} ms`.padStart(9)}`,
  );
process.stdout.write(`${out.join("\n")}\n`);
rmSync(runtimeDir, { recursive: true, force: true });
if (!values.keep) rmSync(dir, { recursive: true, force: true });
else process.stdout.write(`kept ${dir}\n`);
