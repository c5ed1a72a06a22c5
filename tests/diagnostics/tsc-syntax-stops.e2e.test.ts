/**
 * tsc type-checks no file while the project has a syntax error: with an old one in a.ts, the
 * agent's type error in b.ts is never printed, and the old error alone must not pass as the
 * whole story. The agent is told the check stopped before its edit and is blocked,
 * `check --new-only` fails, and b.ts is not recorded clean from that run.
 */
import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { batchEndContext } from "../agents/claude/_helpers.ts";
import { cpilot } from "../helpers/binary.ts";
import { committedRepo } from "../helpers/tmp.ts";

const TSC = join(import.meta.dir, "..", "..", "node_modules", ".bin", "tsc");
const BLOCKS = "checks failed after your last edits";

const hook = batchEndContext;

/** A committed project whose a.ts has an old syntax error, checked whole by tsc. */
function project(): string {
  return committedRepo("cpilot-tsc-syntax-", {
    ".gitignore": ".cpilot/\n",
    "callbacks.config.json": JSON.stringify({
      callbacks: [{ name: "types", pattern: "*.ts", run: `${TSC} --noEmit -p .`, timeout: 120 }],
    }),
    "tsconfig.json": JSON.stringify({
      compilerOptions: { strict: true, noEmit: true },
      include: ["*.ts"],
    }),
    "a.ts": "export const a = (;\n",
    "b.ts": "export const b: number = 1;\n",
  });
}

const TYPE_ERROR = 'export const b: number = "one";\n';

test("tsc stopped at an old syntax error before the agent's edit: the agent is told so and blocked", () => {
  const root = project();
  const all = cpilot(["check", "--all"], { cwd: root });
  expect(all.stderr).toContain("a.ts:1:19 error TS1109");
  writeFileSync(join(root, "b.ts"), TYPE_ERROR);
  const told = hook(root, "b.ts");
  expect(told).toContain(BLOCKS);
  expect(told).toContain(
    "it stopped at other errors before it reached b.ts: your edits there were not checked",
  );
  expect(told).toContain("a.ts:1:19 error TS1109");
  // The syntax error fixed, tsc reaches b.ts: its error is the agent's own, not "already
  // there" (the stopped run did not record b.ts clean, nor its error old).
  writeFileSync(join(root, "a.ts"), "export const a = 1;\n");
  const then = hook(root, "a.ts");
  expect(then).toContain(BLOCKS);
  expect(then).toContain("b.ts:1:14 error TS2322");
  expect(then).not.toContain("already there");
}, 120_000);

test("check --new-only: tsc stopped at an old syntax error before the changed file fails, and says so", () => {
  const root = project();
  expect(cpilot(["check", "--all", "--new-only"], { cwd: root }).code).toBe(0);
  writeFileSync(join(root, "b.ts"), TYPE_ERROR);
  const r = cpilot(["check", "--new-only"], { cwd: root });
  expect(r.stderr).toContain("before it reached b.ts: your edits there were not checked");
  expect(r.code).toBe(1);
}, 120_000);
