/**
 * A dense output (thousands of diagnostics) on the hook path: the real binary, a real git
 * project. A hook call reads the output's first 1,000 diagnostics and says the output goes
 * on; `cpilot check` reads them all; the run's record keeps a few.
 */
import { afterEach, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  contextOf,
  cpilot,
  makeProject,
  type Project,
  postBatch,
} from "../agents/claude/_helpers.ts";

const projects: Project[] = [];
afterEach(() => {
  for (const p of projects.splice(0)) p.remove();
});

/** A project whose callback prints `count` tsc errors, one per line of a.ts (line `i % lines + 1`). */
function dense(count: number, lines: number): Project {
  const log = Array.from(
    { length: count },
    (_, i) => `a.ts(${(i % lines) + 1},7): error TS2322: Type 'string' is not assignable (${i}).`,
  ).join("\n");
  const p = makeProject(
    { callbacks: [{ name: "types", pattern: "*.ts", run: "cat dense.log; exit 1", timeout: 60 }] },
    {
      "dense.log": log,
      "a.ts": Array.from({ length: lines }, (_, i) => `const v${i}: number = "x";`).join("\n"),
    },
  );
  projects.push(p);
  execFileSync("git", ["add", "-A"], { cwd: p.dir });
  execFileSync("git", ["commit", "-qm", "start"], { cwd: p.dir });
  return p;
}

/** The project's one run record. */
function onlyRecord(p: Project): { diagnostics: unknown[]; diagnosticsTotal?: number } {
  const dir = p.path(".cpilot/runs");
  const names = readdirSync(dir).filter((n) => n.endsWith(".json"));
  expect(names).toHaveLength(1);
  return JSON.parse(readFileSync(join(dir, names[0] as string), "utf8"));
}

/** The project's log: the agent's new error on line 1, then 3,000 that were there before. */
function withNewError(p: Project): void {
  // A line above every one of them: the 1,000 lines' errors were there before the edit
  // (the committed file had them); a new one on the new line is the agent's.
  const source = readFileSync(p.path("a.ts"), "utf8");
  writeFileSync(p.path("a.ts"), `const added: string = 1;\n${source}`);
  writeFileSync(
    p.path("dense.log"),
    [
      "a.ts(1,7): error TS2322: Type 'number' is not assignable to type 'string'.",
      ...Array.from(
        { length: 3000 },
        (_, i) =>
          `a.ts(${(i % 1000) + 2},7): error TS2322: Type 'string' is not assignable (${i}).`,
      ),
    ].join("\n"),
  );
}

test("3,000 diagnostics in the edited file: a hook call reads the first 1,000 and says the output goes on", () => {
  const p = dense(3000, 1000);
  withNewError(p);
  const r = p.hook(postBatch([p.path("a.ts")]));
  expect(r.stderr).toBe("");
  const text = contextOf(r.json);
  expect(text).toContain(
    "  a.ts:1:7 error TS2322: Type 'number' is not assignable to type 'string'.",
  );
  // No run ever read the file as committed: the 999 on its unchanged lines cannot be placed.
  expect(text).toContain("999 diagnostics in the files you edited that cpilot cannot place");
  expect(text).toContain(
    "(the output has more than the 1000 diagnostics read here: see the full log)",
  );
  const record = onlyRecord(p);
  expect(record.diagnostics).toHaveLength(500);
  expect(record.diagnosticsTotal).toBe(1000);
  // A cut read that found something new saves nothing (what lies past its cut stays
  // unknown otherwise): the next call (the same output) finds the agent's own error still new.
  expect(readdirSync(p.path(".cpilot"))).not.toContain("baseline");
  const again = contextOf(p.hook(postBatch([p.path("a.ts")])).json);
  expect(again).toContain("a.ts:1:7 error TS2322: Type 'number' is not assignable");
  expect(again).toContain("999 diagnostics in the files you edited that cpilot cannot place");
}, 60_000);

test("the same output under cpilot check: all 3,001 are read", () => {
  const p = dense(3000, 1000);
  withNewError(p);
  const r = cpilot(["check", "--all", "--json"], { cwd: p.dir });
  const report = JSON.parse(r.stdout) as { runs: { diagnostics?: unknown[] }[] };
  expect(report.runs[0]?.diagnostics).toHaveLength(3001);
}, 60_000);

test("a record of a run with few diagnostics keeps them all and no total", () => {
  const p = dense(40, 1000);
  writeFileSync(p.path("a.ts"), "const x = 1;\n");
  const r = p.hook(postBatch([p.path("a.ts")]));
  expect(contextOf(r.json)).toContain("error TS2322");
  const record = onlyRecord(p);
  expect(record.diagnostics).toHaveLength(40);
  expect(record).not.toHaveProperty("diagnosticsTotal");
}, 60_000);
