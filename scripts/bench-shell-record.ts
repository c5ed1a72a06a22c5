// What one comparison of the turn's record costs (src/hook/shell-edits.ts: a shell call's
// look at the project), CPU of cpilot and of the git it runs, in a generated repo of 2,000
// files with 20,000 ignored ones in node_modules/: as it is, with a self-ignoring
// `.gitignore` the turn added (its folder's ignored files are then listed), with a line
// added to the root `.gitignore` (the whole project's ignored files), and with git's
// index written before each look (the agent ran `git add`: the entries git recorded since
// the last look are then hashed).
// Usage: bun scripts/bench-shell-record.ts [files]
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AGENT_HOOK_FILES } from "../src/agents/registry.ts";
import { protectHookFiles } from "../src/config/hook-files.ts";
import { resolveConfig } from "../src/config/resolve.ts";
import { recordTurnStart, shellEditsSince } from "../src/hook/shell-edits.ts";
import { addIgnored, makeRepo } from "./_bench-repo.ts";

const CALLS = 20;
const ROUNDS = 5;
protectHookFiles(AGENT_HOOK_FILES);

/** CPU ms of this process and of the children it waited for (git), from /proc. */
function cpuMs(): number {
  const stat = readFileSync("/proc/self/stat", "utf8");
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // utime, stime, cutime, cstime are fields 14-17 (the 12th-15th after the name)
  const ticks = [11, 12, 13, 14].reduce((sum, i) => sum + Number(f[i]), 0);
  return (ticks * 1000) / 100;
}

type Turn =
  | "no new rule"
  | "self-ignoring .gitignore added"
  | "line added to the root .gitignore"
  | "index written before each look";

function measure(files: number, turn: Turn): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "cpilot-bench-shell-")));
  makeRepo(dir, { files, perFolder: 100 });
  addIgnored(dir, 20_000);
  const config = resolveConfig({ callbacks: [] }, dir);
  recordTurnStart(config, "bench");
  if (turn === "self-ignoring .gitignore added")
    writeFileSync(join(dir, "src/g0/d0/.gitignore"), "*\n");
  if (turn === "line added to the root .gitignore")
    writeFileSync(
      join(dir, ".gitignore"),
      `${readFileSync(join(dir, ".gitignore"), "utf8")}*.log\n`,
    );
  shellEditsSince(config, "bench");
  // The least of a few rounds: the machine's other load only ever adds.
  let ms = Number.POSITIVE_INFINITY;
  for (let round = 0; round < ROUNDS; round++) {
    const cpu0 = cpuMs();
    for (let i = 0; i < CALLS; i++) {
      writeFileSync(join(dir, "src/g0/d0/f0.ts"), `export const v = ${i};\n`);
      if (turn === "index written before each look")
        spawnSync("git", ["add", "src/g0/d0/f0.ts"], { cwd: dir });
      shellEditsSince(config, "bench");
    }
    ms = Math.min(ms, (cpuMs() - cpu0) / CALLS);
  }
  rmSync(dir, { recursive: true, force: true });
  return `| ${files} | ${turn} | ${ms.toFixed(1)} ms |`;
}

const files = Number(process.argv[2] ?? 2000);
console.log("| files | turn | CPU per comparison (cpilot + git) |\n|---|---|---|");
const turns: Turn[] = [
  "no new rule",
  "self-ignoring .gitignore added",
  "line added to the root .gitignore",
  "index written before each look",
];
for (const turn of turns) console.log(measure(files, turn));
