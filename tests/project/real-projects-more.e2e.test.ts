/**
 * Four more public projects, each a snapshot of its tree under tests/fixtures/projects/real-*
 * (the upstream commit in its UPSTREAM.txt): `cpilot init --yes`, then `check --all`. Tools
 * this machine cannot install are recorders (see real-project-kit.ts); tsc is the real one
 * where the snapshot compiles.
 */
import { expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
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

test("lerna/lerna (npm workspaces, nx, a solution tsconfig per package, no root tsconfig): the package is type-checked in its folder through its own configs", () => {
  const s = setUp("lerna", ({ root, log }) => {
    // npm hoists the workspace's tools to the root's node_modules/.bin
    for (const tool of ["eslint", "prettier", "tsc"])
      writeTool(join(root, "node_modules/.bin", tool), RECORDER(log, tool));
  });
  const { callbacks, plan } = init(s);
  // libs/* are nx projects (project.json), no npm workspace: each is checked in its folder
  expect([...callbacks.keys()].sort()).toEqual(
    [
      "eslint",
      "prettier",
      "eslint-packages-lerna",
      "typecheck-packages-lerna",
      ...["child-process", "core"].flatMap((l) =>
        ["eslint", "typecheck", "vitest"].map((t) => `${t}-libs-${l}`),
      ),
    ].sort(),
  );
  expect(callbacks.get("vitest-libs-core")).toMatchObject({ cwd: "libs/core", blocking: false });
  expect(callbacks.get("typecheck-packages-lerna")).toMatchObject({
    cwd: "packages/lerna",
    run: "../../node_modules/.bin/tsc --noEmit -p tsconfig.lib.json && ../../node_modules/.bin/tsc --noEmit -p tsconfig.spec.json",
  });
  expect(callbacks.get("eslint")?.pattern).toContain("!packages/lerna/**");
  expect(plan).toContain("references tsconfig.lib.json, tsconfig.spec.json");
  const before = treeState(s.root);
  expect(cpilot(["check", "--all"], { cwd: s.root, env: s.env }).code).toBe(0);
  const runs = ran(s);
  expect(runs).toContainEqual({
    cwd: "packages/lerna",
    tool: "tsc",
    args: ["--noEmit", "-p", "tsconfig.lib.json"],
  });
  expect(runs.filter((r) => r.tool === "eslint" && r.cwd === "packages/lerna")).toHaveLength(1);
  expect(filesHanded(s).filter((f) => f.includes("node_modules/"))).toEqual([]);
  expect(changed(before, treeState(s.root))).toEqual([]);
  // tsconfig.base.json maps @lerna/core to libs/core/src: an edit there re-checks the package
  writeFileSync(s.log, "");
  expect(cpilot(["check", "libs/core/src/index.ts"], { cwd: s.root, env: s.env }).code).toBe(0);
  expect(ran(s)).toContainEqual({
    cwd: "packages/lerna",
    tool: "tsc",
    args: ["--noEmit", "-p", "tsconfig.lib.json"],
  });
});

test("ianstormtaylor/slate (yarn workspaces; packages read each other's types from dist/): each dependent is checked against its siblings' source, and an edit there runs its check", () => {
  const s = setUp("slate", ({ root, log }) => {
    for (const tool of ["eslint", "prettier", "tsc", "jest"])
      writeTool(join(root, "node_modules/.bin", tool), RECORDER(log, tool));
  });
  const { callbacks, plan } = init(s);
  const history = callbacks.get("typecheck-packages-slate-history");
  expect(history).toMatchObject({
    cwd: "packages/slate-history",
    run: "../../node_modules/.bin/tsc --noEmit -p tsconfig.cpilot.json",
  });
  expect(history?.pattern).toContain("packages/slate/src/**/*.ts");
  expect(plan).toContain("it reads slate (dist/index.d.ts)");
  // the yarn workspace's root CI runs eslint and prettier: the root's callbacks cover the
  // packages with the root's configs, not one copy per package from the same evidence
  expect(callbacks.has("eslint-packages-slate")).toBe(false);
  expect(callbacks.get("jest")?.blocking).toBe(false);
  const mapping = JSON.parse(
    readFileSync(join(s.root, "packages/slate-history/tsconfig.cpilot.json"), "utf8"),
  );
  expect(mapping).toMatchObject({
    extends: "./tsconfig.json",
    compilerOptions: { noEmit: true, paths: { slate: ["../slate/src/index.ts"] } },
  });
  execFileSync("git", ["add", "-A"], { cwd: s.root });
  execFileSync("git", ["commit", "-qm", "cpilot init"], { cwd: s.root });
  const before = treeState(s.root);
  expect(cpilot(["check", "--all"], { cwd: s.root, env: s.env }).code).toBe(0);
  expect(changed(before, treeState(s.root))).toEqual([]);
  writeFileSync(join(s.root, "log-reset"), "");
  writeFileSync(s.log, "");
  const edit = cpilot(["check", "packages/slate/src/interfaces/path.ts"], {
    cwd: s.root,
    env: s.env,
  });
  expect(edit.code).toBe(0);
  expect(ran(s)).toContainEqual({
    cwd: "packages/slate-history",
    tool: "tsc",
    args: ["--noEmit", "-p", "tsconfig.cpilot.json"],
  });
});

test("colinhacks/zod (pnpm, biome formats the code, prettier in its dependencies runs only on Markdown through lint-staged): prettier never gets a .ts file", () => {
  const s = setUp("zod", ({ root, log }) => {
    for (const tool of ["biome", "prettier", "tsc", "vitest"])
      writeTool(join(root, "node_modules/.bin", tool), RECORDER(log, tool));
  });
  const { callbacks } = init(s);
  expect(callbacks.get("prettier")?.pattern).toEqual(["packages/*/**/*.md"]);
  expect(argv(callbacks.get("biome"))).toContain("biome check --write");
  expect(callbacks.get("typecheck-packages-zod")).toMatchObject({ cwd: "packages/zod" });
  expect(callbacks.get("vitest")?.blocking).toBe(false);
  expect(cpilot(["check", "--all"], { cwd: s.root, env: s.env }).code).toBe(0);
  const prettier = ran(s).filter((r) => r.tool === "prettier");
  // init's proof (`--list-different`) and the check: the same one file, both times
  const given = new Set(prettier.flatMap((r) => r.args.filter((a) => a.includes("/"))));
  expect([...given]).toEqual(["packages/zod/README.md"]);
  expect(
    ran(s).some((r) => r.tool === "biome" && r.args.includes("packages/zod/src/index.ts")),
  ).toBe(true);
});

test.skipIf(!hasPython)(
  "jazzband/django-debug-toolbar (Django, make test, ruff 0.7 pinned in pre-commit, a .venv): a newer ruff here reports what it would fix instead of rewriting, and the .venv is untouched",
  () => {
    const s = setUp("django-debug-toolbar", ({ root, log }) => {
      execFileSync("python3", ["-m", "venv", "--without-pip", join(root, ".venv")]);
      writeFiles(root, { ".venv/lib/site-packages/installed/mod.py": "import os,sys\n" });
      // a ruff newer than the pinned 0.7.0 whose `check --fix` rewrites the files marked
      // `# newer-ruff-fixes` (as 0.16 did two of this project's files)
      const ruff = `
case "$1" in
  --version) echo "ruff 0.16.9"; exit 0;;
  format) exit 0;;
esac
fix=0; diff=0; files=()
for a in "$@"; do case "$a" in --fix) fix=1;; --diff) diff=1;; -*|check) ;; *) files+=("$a");; esac; done
st=0
for f in "\${files[@]}"; do
  grep -q "# newer-ruff-fixes" "$f" || continue
  if [ $diff = 1 ]; then echo "--- $f"; echo "+++ $f"; st=1
  elif [ $fix = 1 ]; then sed -i 's/# newer-ruff-fixes/# fixed/' "$f"
  else echo "$f:1:1: UP000 newer rule"; st=1; fi
done
exit $st
`;
      writeTool(join(root, ".venv/bin/ruff"), RECORDER(log, "ruff", ruff));
      writeTool(join(root, "node_modules/.bin/eslint"), RECORDER(log, "eslint"));
      writeTool(join(root, "node_modules/.bin/prettier"), RECORDER(log, "prettier"));
      const utils = join(root, "debug_toolbar/utils.py");
      writeFileSync(utils, `${readFileSync(utils, "utf8")}# newer-ruff-fixes\n`);
    });
    const before = notOwn(s, [".venv/"]);
    const { callbacks, plan } = init(s);
    expect(callbacks.get("make-test")).toMatchObject({ run: "make test", blocking: false });
    // pre-commit runs prettier on `types_or: [javascript, css]` with `--trailing-comma=es5`
    expect(callbacks.get("prettier")?.pattern).toEqual(["*.js", "*.mjs", "*.cjs", "*.css"]);
    expect(argv(callbacks.get("prettier"))).toContain("--trailing-comma=es5 {files}");
    expect(argv(callbacks.get("ruff"))).toBe(".venv/bin/ruff check --no-fix --quiet {files}");
    expect(callbacks.get("ruff")?.fixes).toBeUndefined();
    expect(plan).toContain("ruff 0.16.9 here, the project pins 0.7.0 (.pre-commit-config.yaml)");
    expect(plan).toContain("runs with --no-fix");
    expect(plan).toContain("ruff check --diff: --fix would change 1 of 12 files now");
    execFileSync("git", ["add", "-A"], { cwd: s.root });
    execFileSync("git", ["commit", "-qm", "cpilot init"], { cwd: s.root });
    const tree = treeState(s.root);
    const check = cpilot(["check", "--all"], { cwd: s.root, env: s.env });
    // ruff reports the file a newer version would rewrite; it is told, not rewritten
    expect(check.code).toBe(1);
    expect(check.stderr).toContain("debug_toolbar/utils.py");
    expect(changed(tree, treeState(s.root))).toEqual([]);
    expect(filesHanded(s).filter((f) => f.startsWith(".venv/"))).toEqual([]);
    expect(notOwn(s, [".venv/"])).toEqual(before);
  },
);
