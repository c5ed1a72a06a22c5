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
import { BLOCKS, STOPPED, TYPE_ERROR, upDownProjects } from "./_tsc-build-projects.ts";

const TSC = join(import.meta.dir, "..", "..", "node_modules", ".bin", "tsc");
const hook = batchEndContext;

const project = () => upDownProjects("cpilot-tsc-build-", `${TSC} -b --stopBuildOnErrors`);

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
