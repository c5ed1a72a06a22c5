/**
 * Public workspaces of shapes the other real-project tests do not cover, each a snapshot
 * of its tree under tests/fixtures/projects/real-* (the upstream commit in its
 * UPSTREAM.txt): `cpilot init --yes`, then `check --all`. Tools this machine cannot
 * install are recorders (see real-project-kit.ts).
 */
import { expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { cpilot } from "../helpers/binary.ts";
import { writeFiles } from "../helpers/tmp.ts";
import { treeState } from "../helpers/tree-state.ts";
import {
  argv,
  filesHanded,
  hasPython,
  init,
  notOwn,
  RECORDER,
  ran,
  setUp,
  writeTool,
} from "./real-project-kit.ts";

const changed = (before: Record<string, string>, after: Record<string, string>) =>
  Object.keys({ ...before, ...after }).filter((k) => after[k] !== before[k] && !k.startsWith("("));

test.skipIf(!hasPython)(
  "pydantic/pydantic-ai (a uv workspace of five members, one .venv at the root, `uv run ruff` and mypy from the root's Makefile, pyright from `make typecheck`): the root's callbacks cover the members, no copy per member",
  () => {
    const s = setUp("pydantic-ai", ({ root, log }) => {
      execFileSync("python3", ["-m", "venv", "--without-pip", join(root, ".venv")]);
      writeFiles(root, { ".venv/lib/site-packages/installed/mod.py": "import os,sys\n" });
      for (const tool of ["ruff", "mypy", "pyright", "pytest"])
        writeTool(join(root, ".venv/bin", tool), RECORDER(log, tool));
    });
    const before = notOwn(s, [".venv/"]);
    const { callbacks, plan } = init(s);
    // the members have no tool settings of their own but examples' [tool.ruff] (line-length
    // 88, extending the root's): the root's Makefile runs ruff, mypy and pytest for all
    expect([...callbacks.keys()].sort()).toEqual(
      ["ruff-format", "ruff", "mypy", "pyright", "pytest", "ruff-examples"].sort(),
    );
    expect(callbacks.get("ruff")?.pattern).toEqual(["*.py", "*.pyi", "!examples/**"]);
    expect(callbacks.get("ruff-examples")).toMatchObject({ cwd: "examples" });
    // [tool.mypy] files = "tests/typed_agent.py": mypy over what the project checks
    expect(argv(callbacks.get("mypy"))).toBe(".venv/bin/mypy -O json");
    // `make typecheck` runs pyright over [tool.pyright] include: the whole workspace
    expect(callbacks.get("pyright")).toMatchObject({
      run: [".venv/bin/pyright"],
      overlap: "replace",
    });
    expect(plan).toContain("from Makefile (settings: [tool.pyright] in pyproject.toml)");
    expect(callbacks.get("pytest")).toMatchObject({ blocking: false });
    expect(callbacks.get("pytest")?.cwd).toBeUndefined();
    expect(plan).toContain("ruff-format --check: would rewrite 0 of 10 files now");
    execFileSync("git", ["add", "-A"], { cwd: s.root });
    execFileSync("git", ["commit", "-qm", "cpilot init"], { cwd: s.root });
    const tree = treeState(s.root);
    const check = cpilot(["check", "--all"], { cwd: s.root, env: s.env });
    expect(check.code).toBe(0);
    expect(changed(tree, treeState(s.root))).toEqual([]);
    expect(filesHanded(s).filter((f) => f.startsWith(".venv/"))).toEqual([]);
    expect(notOwn(s, [".venv/"])).toEqual(before);
    // an edit in a member runs the root's type checkers, in the root, once each
    execFileSync("sh", ["-c", `: > '${s.log}'`]);
    const edit = cpilot(["check", "pydantic_graph/pydantic_graph/exceptions.py"], {
      cwd: s.root,
      env: s.env,
    });
    expect(edit.code).toBe(0);
    const types = ran(s).filter((r) => r.tool === "mypy" || r.tool === "pyright");
    // the two run side by side: in either order
    expect(types.map((r) => [r.cwd, r.tool, r.args.join(" ")]).sort()).toEqual([
      [".", "mypy", "-O json"],
      [".", "pyright", ""],
    ]);
  },
);

test("charmbracelet/x (a Go module per folder, none at the root; a Taskfile runs `gofmt -s -w` in each, pony's own runs gofumpt): each module formats as the project does, and a compile error in a nested one fails", () => {
  const s = setUp("charm-x", ({ log, bin }) => {
    for (const tool of ["go", "gofmt", "gofumpt"]) writeTool(join(bin, tool), RECORDER(log, tool));
    writeTool(
      join(bin, "golangci-lint"),
      RECORDER(
        log,
        "golangci-lint",
        'if grep -rq "COMPILE ERROR" --include=*.go .; then echo "x.go:1:1: typecheck"; exit 1; fi\n',
      ),
    );
  });
  const { callbacks, plan } = init(s);
  expect(callbacks.has("gofmt")).toBe(false);
  expect(callbacks.get("gofmt-term")).toMatchObject({
    cwd: "term",
    run: ["gofmt", "-s", "-w", "{files}"],
  });
  expect(callbacks.get("gofmt-exp-slice")?.run).toEqual(["gofmt", "-s", "-w", "{files}"]);
  // pony's own Taskfile runs gofumpt and goimports, not the root's gofmt -s
  expect(callbacks.get("gofumpt-pony")).toMatchObject({
    cwd: "pony",
    run: ["gofumpt", "-w", "{files}"],
  });
  expect(callbacks.has("gofmt-pony")).toBe(false);
  expect(callbacks.get("go-test-errors")).toMatchObject({ cwd: "errors", blocking: false });
  expect(plan).toContain("Taskfile.yaml at the project root runs gofmt -s");
  execFileSync("git", ["add", "-A"], { cwd: s.root });
  execFileSync("git", ["commit", "-qm", "cpilot init"], { cwd: s.root });
  const tree = treeState(s.root);
  expect(cpilot(["check", "--all"], { cwd: s.root, env: s.env }).code).toBe(0);
  expect(changed(tree, treeState(s.root))).toEqual([]);
  expect(ran(s)).toContainEqual({
    cwd: "term",
    tool: "gofmt",
    args: expect.arrayContaining(["-s", "-w", "term.go"]),
  });
  expect(ran(s).filter((r) => r.tool === "gofmt" && r.cwd === "pony")).toEqual([]);
  writeFiles(s.root, { "exp/slice/broken.go": "package slice\n// COMPILE ERROR\n" });
  const broken = cpilot(["check", "exp/slice/broken.go"], { cwd: s.root, env: s.env });
  expect(broken.code).toBe(1);
  expect(broken.stderr).toContain("golangci-lint-exp-slice");
});

test("jestjs/jest (yarn 4 workspaces, TypeScript project references, prettier run on all but the code, which eslint formats): prettier never gets a .ts file, and a dependent is checked against its reference's source", () => {
  const s = setUp("jest", ({ root, log }) => {
    for (const tool of ["eslint", "prettier", "tsc", "jest"])
      writeTool(join(root, "node_modules/.bin", tool), RECORDER(log, tool));
  });
  const { callbacks, plan } = init(s);
  // "lint:prettier-script": prettier . "!**/*.{js,jsx,cjs,mjs,ts,tsx}"
  const prettier = callbacks.get("prettier")?.pattern as string[];
  expect(prettier).toContain("*.json");
  for (const ext of ["ts", "tsx", "js", "mjs"]) expect(prettier).not.toContain(`*.${ext}`);
  expect(plan).toContain("prettier --check: would rewrite 0 of");
  // packages/jest-pattern references ../jest-regex-util and reads it from build/index.d.ts
  const pattern = callbacks.get("typecheck-packages-jest-pattern");
  expect(pattern).toMatchObject({ cwd: "packages/jest-pattern" });
  expect(argv(pattern)).toBe("../../node_modules/.bin/tsc --noEmit -p tsconfig.cpilot.json");
  expect(pattern?.pattern).toContain("packages/jest-regex-util/src/**/*.ts");
  expect(callbacks.get("jest")?.blocking).toBe(false);
  execFileSync("git", ["add", "-A"], { cwd: s.root });
  execFileSync("git", ["commit", "-qm", "cpilot init"], { cwd: s.root });
  const tree = treeState(s.root);
  writeFileSync(s.log, "");
  expect(cpilot(["check", "--all"], { cwd: s.root, env: s.env }).code).toBe(0);
  expect(changed(tree, treeState(s.root))).toEqual([]);
  const given = ran(s)
    .filter((r) => r.tool === "prettier")
    .flatMap((r) => r.args.filter((a) => !a.startsWith("-")));
  expect(given).toContain("packages/jest-pattern/package.json");
  expect(given.filter((f) => /\.[cm]?[jt]sx?$/.test(f))).toEqual([]);
  expect(filesHanded(s).filter((f) => f.includes("node_modules/"))).toEqual([]);
  writeFileSync(s.log, "");
  expect(
    cpilot(["check", "packages/jest-regex-util/src/index.ts"], { cwd: s.root, env: s.env }).code,
  ).toBe(0);
  expect(ran(s)).toContainEqual({
    cwd: "packages/jest-pattern",
    tool: "tsc",
    args: ["--noEmit", "-p", "tsconfig.cpilot.json"],
  });
});

test("vuejs/core (pnpm workspaces; the packages have no tsconfig, the root's maps @vue/* to their source): one root type check covers them, and an edit in a package runs it", () => {
  const s = setUp("vue-core", ({ root, log }) => {
    for (const tool of ["eslint", "prettier", "tsc", "vitest"])
      writeTool(join(root, "node_modules/.bin", tool), RECORDER(log, tool));
  });
  const { callbacks } = init(s);
  expect([...callbacks.keys()].sort()).toEqual(["eslint", "prettier", "typecheck", "vitest"]);
  // its "check" script, as it is: the root's tsconfig includes packages/*/src
  expect(argv(callbacks.get("typecheck"))).toBe("node_modules/.bin/tsc --incremental --noEmit");
  expect(callbacks.get("typecheck")?.cwd).toBeUndefined();
  expect(callbacks.get("vitest")?.blocking).toBe(false);
  execFileSync("git", ["add", "-A"], { cwd: s.root });
  execFileSync("git", ["commit", "-qm", "cpilot init"], { cwd: s.root });
  const tree = treeState(s.root);
  writeFileSync(s.log, "");
  expect(cpilot(["check", "--all"], { cwd: s.root, env: s.env }).code).toBe(0);
  expect(changed(tree, treeState(s.root))).toEqual([]);
  expect(filesHanded(s).filter((f) => f.includes("node_modules/"))).toEqual([]);
  writeFileSync(s.log, "");
  const edit = cpilot(["check", "packages/shared/src/general.ts"], { cwd: s.root, env: s.env });
  expect(edit.code).toBe(0);
  expect(ran(s)).toContainEqual({ cwd: ".", tool: "tsc", args: ["--incremental", "--noEmit"] });
});
