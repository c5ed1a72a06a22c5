// What noting one edit tool's file costs the record of the turn (src/hook/shell-edits.ts):
// CPU time and bytes written per call, in generated repos of 2,000 and 20,000 files, clean
// (committed) and uncommitted (every file untracked, as in a project not yet committed,
// where the record lists every file). Usage: bun scripts/bench-tool-edit-record.ts [files...]
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AGENT_HOOK_FILES } from "../src/agents/registry.ts";
import { protectHookFiles } from "../src/config/hook-files.ts";
import { resolveConfig } from "../src/config/resolve.ts";
import { noteToolEdits, recordTurnStart } from "../src/hook/shell-edits.ts";
import { gitIn, HOOK_FILE, makeRepo } from "./_bench-repo.ts";

const CALLS = 20;
protectHookFiles(AGENT_HOOK_FILES);

function written(): number {
  const io = readFileSync("/proc/self/io", "utf8");
  return Number(/^wchar: (\d+)$/m.exec(io)?.[1] ?? 0);
}

function measure(files: number, uncommitted: boolean): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "cpilot-bench-record-")));
  makeRepo(dir, { files, perFolder: 100 });
  if (uncommitted) {
    const git = gitIn(dir);
    git("update-ref", "-d", "HEAD");
    git("rm", "-r", "-q", "--cached", ".");
  }
  const config = resolveConfig({ callbacks: [] }, dir);
  recordTurnStart(config, "bench");
  const cpu0 = process.cpuUsage();
  const w0 = written();
  for (let i = 0; i < CALLS; i++) {
    writeFileSync(join(dir, HOOK_FILE), `export const v = ${i};\n`);
    noteToolEdits(config, "bench", [HOOK_FILE]);
  }
  const cpu = process.cpuUsage(cpu0);
  const bytes = (written() - w0) / CALLS;
  const ms = (cpu.user + cpu.system) / 1000 / CALLS;
  rmSync(dir, { recursive: true, force: true });
  return `| ${files} | ${uncommitted ? "uncommitted" : "clean"} | ${ms.toFixed(2)} ms | ${Math.round(bytes)} B |`;
}

const sizes = process.argv.slice(2).map(Number);
console.log("| files | repo | CPU per note | written per note |\n|---|---|---|---|");
for (const files of sizes.length > 0 ? sizes : [2000, 20000])
  for (const uncommitted of [false, true]) console.log(measure(files, uncommitted));
