/**
 * `tsc -b --stopBuildOnErrors` builds no project past one with errors, and prints nothing
 * about the ones it skipped: with an old type error in project up, the agent's type error in
 * project down (which references up) is never printed. The agent is told the check stopped
 * before its edit and is blocked, and `check --new-only` fails.
 */
import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { batchEndContext } from "../agents/claude/_helpers.ts";
import { cpilot } from "../helpers/binary.ts";
import { committedRepo } from "../helpers/tmp.ts";

const TSC = join(import.meta.dir, "..", "..", "node_modules", ".bin", "tsc");
const BLOCKS = "checks failed after your last edits";
const STOPPED =
  "it stopped at other errors before it reached down/b.ts: your edits there were not checked";

const hook = batchEndContext;

const options = { composite: true, strict: true, outDir: "out" };

/** Two projects, down referencing up, whose a.ts has an old type error. */
function project(): string {
  return committedRepo("cpilot-tsc-build-", {
    ".gitignore": ".cpilot/\nout/\n*.tsbuildinfo\n",
    "callbacks.config.json": JSON.stringify({
      callbacks: [
        { name: "build", pattern: "*.ts", run: `${TSC} -b --stopBuildOnErrors`, timeout: 120 },
      ],
    }),
    "tsconfig.json": JSON.stringify({ files: [], references: [{ path: "up" }, { path: "down" }] }),
    "up/tsconfig.json": JSON.stringify({ compilerOptions: options, include: ["*.ts"] }),
    "up/a.ts": 'export const one: number = "x";\n',
    "down/tsconfig.json": JSON.stringify({
      compilerOptions: options,
      include: ["*.ts"],
      references: [{ path: "../up" }],
    }),
    "down/b.ts": 'import { one } from "../up/a";\nexport const two: number = one + 1;\n',
  });
}

const TYPE_ERROR = 'import { one } from "../up/a";\nexport const two: string = one + 1;\n';

test("tsc -b --stopBuildOnErrors stopped at an old error before the agent's project: the agent is told so and blocked", () => {
  const root = project();
  expect(cpilot(["check", "--all"], { cwd: root }).stderr).toContain("up/a.ts:1:14 error TS2322");
  writeFileSync(join(root, "down/b.ts"), TYPE_ERROR);
  const told = hook(root, "down/b.ts");
  expect(told).toContain(BLOCKS);
  expect(told).toContain(STOPPED);
}, 120_000);

test("check --new-only: tsc -b --stopBuildOnErrors stopped before the changed project fails, and says so", () => {
  const root = project();
  expect(cpilot(["check", "--all", "--new-only"], { cwd: root }).code).toBe(0);
  writeFileSync(join(root, "down/b.ts"), TYPE_ERROR);
  const r = cpilot(["check", "--new-only"], { cwd: root });
  expect(r.stderr).toContain(STOPPED);
  expect(r.code).toBe(1);
}, 120_000);
