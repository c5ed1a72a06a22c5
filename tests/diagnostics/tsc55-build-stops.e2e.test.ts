/**
 * Before TypeScript 5.6, `tsc -b` builds no project past one with errors, without any flag,
 * and prints nothing about the ones it skipped: with an old type error in project up, the
 * agent's type error in project down (which references up) is never printed. Run with the
 * real TypeScript 5.5 (the `typescript55` devDependency), installed in the project as npm
 * would, and run as `init` proposes it. The agent is told the check stopped before its
 * edit and is blocked; `check --new-only` fails; the files the build never reached are not
 * recorded clean.
 */
import { expect, test } from "bun:test";
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { batchEndContext } from "../agents/claude/_helpers.ts";
import { cpilot } from "../helpers/binary.ts";
import { committedRepo } from "../helpers/tmp.ts";
import { BLOCKS, STOPPED, TYPE_ERROR, upDownProjects } from "./_tsc-build-projects.ts";

const TS55 = realpathSync(join(import.meta.dir, "..", "..", "node_modules", "typescript55"));
const hook = batchEndContext;

const options = { composite: true, strict: true, outDir: "out" };

/** down's c.ts has an old error too, which tsc 5.5 never prints while up fails. TypeScript 5.5 in node_modules. */
function project(): string {
  const root = upDownProjects("cpilot-tsc55-build-", "node_modules/.bin/tsc -b", {
    ignore: "node_modules/\n",
    files: { "down/c.ts": "export const three: string = 3;\n" },
  });
  installTypescript55(root);
  return root;
}

/** As npm installs it: the package, and its program linked from node_modules/.bin. */
function installTypescript55(root: string): void {
  mkdirSync(join(root, "node_modules", ".bin"), { recursive: true });
  symlinkSync(TS55, join(root, "node_modules", "typescript"));
  symlinkSync("../typescript/bin/tsc", join(root, "node_modules", ".bin", "tsc"));
}

test("tsc 5.5 -b stopped at an old error before the agent's project: the agent is told so and blocked; the unreached file is not recorded clean", () => {
  const root = project();
  const all = cpilot(["check", "--all"], { cwd: root });
  expect(all.stderr).toContain("up/a.ts:1:14 error TS2322");
  // tsc 5.5 built nothing past up: down's old error was never printed
  expect(all.stderr).not.toContain("down/c.ts");
  writeFileSync(join(root, "down/b.ts"), TYPE_ERROR);
  const told = hook(root, "down/b.ts");
  expect(told).toContain(BLOCKS);
  expect(told).toContain(STOPPED);
  // The same content again: the result is replayed, and read the same way.
  const again = hook(root, "down/b.ts");
  expect(again).toContain(BLOCKS);
  expect(again).toContain(STOPPED);
  // The agent fixes the old error, as told: now the build reaches down, and the agent's error
  // is its own; c.ts's error, which no run before read, is not called the agent's.
  writeFileSync(join(root, "up/a.ts"), "export const one: number = 1;\n");
  const then = hook(root, "up/a.ts");
  expect(then).toContain(BLOCKS);
  expect(then).toContain("down/b.ts:2:14");
  expect(then).not.toContain("were not checked");
  // recorded clean, c.ts's old error would read as the agent's own
  expect(then).toContain("that cpilot had not read before");
  expect(then).toContain("down/c.ts:1:14");
}, 120_000);

test("check --new-only: tsc 5.5 -b stopped before the changed project fails, and says so", () => {
  const root = project();
  expect(cpilot(["check", "--all", "--new-only"], { cwd: root }).code).toBe(0);
  writeFileSync(join(root, "down/b.ts"), TYPE_ERROR);
  const r = cpilot(["check", "--new-only"], { cwd: root });
  expect(r.stderr).toContain(STOPPED);
  expect(r.code).toBe(1);
}, 120_000);

test("tsc 5.5 -b over projects that reference none builds them all: an old error in one does not make the other's edit unchecked", () => {
  // a Vite app's layout: two independent projects under a solution config
  const root = committedRepo("cpilot-tsc55-apart-", {
    ".gitignore": ".cpilot/\nout/\n*.tsbuildinfo\nnode_modules/\n",
    "callbacks.config.json": JSON.stringify({
      callbacks: [
        { name: "build", pattern: "*.ts", run: "node_modules/.bin/tsc -b", timeout: 120 },
      ],
    }),
    "tsconfig.json": JSON.stringify({ files: [], references: [{ path: "app" }, { path: "node" }] }),
    "app/tsconfig.json": JSON.stringify({ compilerOptions: options, include: ["*.ts"] }),
    "app/a.ts": 'export const one: number = "x";\n',
    "node/tsconfig.json": JSON.stringify({ compilerOptions: options, include: ["*.ts"] }),
    "node/b.ts": "export const two: number = 2;\n",
  });
  installTypescript55(root);
  expect(cpilot(["check", "--all"], { cwd: root }).stderr).toContain("app/a.ts:1:14");
  writeFileSync(join(root, "node/b.ts"), "export const two: number = 3;\n");
  const told = hook(root, "node/b.ts");
  expect(told).not.toContain("were not checked");
  expect(told).toContain("its 1 diagnostic was already there before your edit");
  // and the agent's error there is printed, and its own
  writeFileSync(join(root, "node/b.ts"), 'export const two: number = "3";\n');
  const then = hook(root, "node/b.ts");
  expect(then).toContain(BLOCKS);
  expect(then).toContain("node/b.ts:1:14");
}, 120_000);
