// The benchmark (scripts/bench.ts) in its quick mode, one run on a 200-file repo: the report
// has every case, tool and floor, and the peers it timed are the native binaries, not the
// Node launchers in node_modules/.bin. No timing is asserted.
import { expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { cpilotBinary } from "../helpers/binary.ts";
import { tempDir } from "../helpers/tmp.ts";

const REPO = join(import.meta.dir, "..", "..");

test("quick bench on a tiny repo reports every row and times the peers natively", () => {
  cpilotBinary();
  const dir = tempDir("cpilot-bench-test-");
  const out = join(dir, "report.md");
  const r = spawnSync(
    process.execPath,
    [
      join(REPO, "scripts", "bench.ts"),
      "--quick",
      "--sizes",
      "200",
      "--shapes",
      "10",
      "--ignored",
      "0,100",
      "--runs",
      "1",
      "--warmup",
      "0",
      "--dir",
      dir,
      "--out",
      out,
    ],
    { cwd: REPO, encoding: "utf8", timeout: 240_000 },
  );
  expect(r.stderr).not.toContain("Cannot");
  expect(r.status).toBe(0);
  const report = r.stdout;
  expect(readFileSync(out, "utf8")).toBe(report);
  expect(report).toMatch(/^# cpilot benchmark, \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
  expect(report).toMatch(/- machine: \d+ CPUs \(nproc\), .+/);
  expect(report).toMatch(/- load average \(1, 5, 15 min\): [\d.]+ /);
  expect(report).toMatch(/- creating a file: \d+ us in the bench folder/);

  // Each peer's line names the file timed; lefthook and prek must be native executables.
  for (const peer of ["lefthook 2.2.2", "prek 0.5.3"]) {
    const line = report.split("\n").find((l) => l.startsWith(`- ${peer}: timed binary `));
    expect(line, `${peer} was not timed`).toBeDefined();
    const path = line?.match(/timed binary (\S+): native \(ELF\)$/)?.[1];
    expect(path, line).toBeDefined();
    expect(path).not.toContain(".bin");
    const head = readFileSync(path ?? "").subarray(0, 4);
    expect(head.toString("latin1")).toBe("\x7fELF");
  }
  expect(report).toMatch(
    /\/\.bin\/lint-staged: script \(#!\/usr\/bin\/env node\), run by Node v\d+/,
  );

  const repos = [
    "200 files, 10-file folders, no ignored files",
    "200 files, 10-file folders, 100 ignored in node_modules",
  ];
  const cases: Record<string, string[]> = {
    "check --all": ["cpilot", "lefthook", "prek"],
    "--staged, 1 file": ["cpilot", "lefthook", "prek", "lint-staged"],
    // 1,000 asked for, but the repo has only 100 *.ts files: the label says what ran.
    "--staged, 100 files": ["cpilot", "lefthook", "prek", "lint-staged"],
    "--staged, 1 file, the first also changed unstaged (set aside and put back)": [
      "cpilot",
      "lefthook",
      "prek",
      "lint-staged",
    ],
    "Claude hook call (PostToolUse, 1 file)": ["cpilot", "lefthook", "prek"],
  };
  const floors = [
    "git ls-files",
    "git ls-files -o --exclude-standard",
    "git diff --cached --name-only",
    "empty Bun program",
    "bash -c true",
  ];
  const cell = "[\\d.]+ ms";
  // The hook call against its floor (empty Bun program + bash -c true), one row per repo.
  for (const repo of repos) {
    expect(report).toMatch(new RegExp(`^\\| ${esc(repo)} \\| -?[\\d.]+ ms \\| [\\d.]+× \\|$`, "m"));
  }
  for (const repo of repos) {
    const section = report.split(`### ${repo}\n`)[1]?.split("\n### ")[0] ?? "";
    expect(section, `no details for ${repo}`).not.toBe("");
    for (const [name, tools] of Object.entries(cases)) {
      // The summary row: cpilot and the faster native peer, with ratios.
      expect(report).toMatch(
        new RegExp(
          `\\| ${esc(repo)} \\| ${esc(name)} \\| ${cell} \\| ${cell} \\| ${cell} \\| .*\\| [\\d.]+× \\((lefthook|prek)\\) \\| [\\d.]+× \\| \\d+ MB / \\d+ MB \\|`,
        ),
      );
      for (const tool of [...tools, ...floors.map((f) => `floor: ${f}`)]) {
        expect(section).toMatch(
          new RegExp(
            `^\\| ${esc(name)} \\| ${esc(tool)} \\| ${cell} \\| ${cell} \\| ${cell} \\| \\d+ MB \\|`,
            "m",
          ),
        );
      }
    }
  }
}, 300_000);

const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
