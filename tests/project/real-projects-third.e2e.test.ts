/**
 * A third round of public projects, of shapes the other real-project tests do not cover,
 * each a snapshot of its tree under tests/fixtures/projects/real-* (the upstream commit in
 * its UPSTREAM.txt): `cpilot init --yes`, then `check --all`, an edit that breaks a package,
 * its revert. Tools this machine cannot install are recorders (see real-project-kit.ts).
 */
import { expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { cpilot } from "../helpers/binary.ts";
import { tempDir, writeFiles } from "../helpers/tmp.ts";
import { treeState } from "../helpers/tree-state.ts";
import { argv, changedOwn, init, RECORDER, ran, setUp, writeTool } from "./real-project-kit.ts";

const REPO_BIN = join(import.meta.dir, "..", "..", "node_modules", ".bin");
const TYPES_NODE = join(import.meta.dir, "..", "..", "node_modules", "@types", "node");

const commit = (root: string, message: string) => {
  execFileSync("git", ["add", "-A"], { cwd: root });
  execFileSync("git", ["commit", "-qm", message], { cwd: root });
};

/**
 * What `bun install` leaves with `linker = "isolated"`: each package's own node_modules/.bin
 * (its typescript there, the real tsc), the workspace package linked into its dependents,
 * the root's oxfmt and oxlint (recorders: the project's versions need a newer node).
 */
function betterTStack() {
  return setUp("better-t-stack", ({ root, log, bin }) => {
    for (const dir of ["apps/cli", "packages/template-generator", "packages/types"]) {
      writeFiles(root, { [`${dir}/node_modules/.bin/.keep`]: "" });
      symlinkSync(join(REPO_BIN, "tsc"), join(root, dir, "node_modules/.bin/tsc"));
    }
    writeFiles(root, { "apps/cli/node_modules/@types/.keep": "" });
    symlinkSync(TYPES_NODE, join(root, "apps/cli/node_modules/@types/node"));
    for (const dir of ["apps/cli", "packages/template-generator"]) {
      writeFiles(root, { [`${dir}/node_modules/@better-t-stack/.keep`]: "" });
      symlinkSync(
        join(root, "packages/types"),
        join(root, dir, "node_modules/@better-t-stack/types"),
      );
    }
    for (const tool of ["oxfmt", "oxlint"])
      writeTool(join(root, "node_modules/.bin", tool), RECORDER(log, tool));
    writeTool(join(bin, "bun"), RECORDER(log, "bun"));
  });
}

test("AmanVarshney01/create-better-t-stack (a bun workspace, isolated linker): packages/types's types, declared only in `exports`, are read from its source, so a rename there is told by apps/cli's type check", () => {
  const s = betterTStack();
  const { callbacks, plan } = init(s);
  expect([...callbacks.keys()].sort()).toEqual(
    [
      "oxlint",
      "oxfmt",
      "bun-test",
      "bun-test-apps-cli",
      "typecheck-apps-cli",
      "typecheck-packages-template-generator",
      "typecheck-packages-types",
    ].sort(),
  );
  // `"exports": {".": {"types": "./dist/index.d.mts"}}` and nothing built: without
  // tsconfig.cpilot.json, tsc finds no @better-t-stack/types at all
  expect(plan).toContain(
    "it reads @better-t-stack/types (dist/index.d.mts) from built types, so it is checked against their source through tsconfig.cpilot.json",
  );
  expect(callbacks.get("typecheck-apps-cli")).toMatchObject({ cwd: "apps/cli" });
  expect(argv(callbacks.get("typecheck-apps-cli"))).toBe(
    "node_modules/.bin/tsc --noEmit -p tsconfig.cpilot.json",
  );
  expect(callbacks.get("typecheck-apps-cli")?.pattern).toContain("packages/types/src/**/*.ts");
  expect(argv(callbacks.get("typecheck-packages-template-generator"))).toBe(
    "node_modules/.bin/tsc --noEmit -p tsconfig.cpilot.json",
  );
  commit(s.root, "cpilot init");

  const tree = treeState(s.root);
  const first = cpilot(["check", "--all"], { cwd: s.root, env: s.env });
  expect(first.stderr).not.toContain("Cannot find module");
  expect(first.code).toBe(0);
  expect(changedOwn(s, tree)).toEqual([]);

  // an agent renames an export apps/cli uses; dist/ was never built
  writeFiles(s.root, {
    "packages/types/src/constants.ts": readFileSync(
      join(s.root, "packages/types/src/constants.ts"),
      "utf8",
    ).replace("export const desktopWebFrontends", "export const desktopFrontends"),
  });
  const broken = cpilot(["check", "--all"], { cwd: s.root, env: s.env });
  expect(broken.code).not.toBe(0);
  expect(broken.stderr).toMatch(/✗ typecheck-apps-cli[^\n]*\n[^✓✗]*apps\/cli\/src\/constants\.ts/);

  execFileSync("git", ["checkout", "packages/types/src/constants.ts"], { cwd: s.root });
  const reverted = cpilot(["check", "--all"], { cwd: s.root, env: s.env });
  expect(reverted.code).toBe(0);
  expect(reverted.stderr).toMatch(/✓ typecheck-apps-cli \([^)]*from cache\)/);
});

test("AmanVarshney01/create-better-t-stack: the root's `test` script runs `cd apps/cli && bun test`, so its callback runs bun test in apps/cli, where its bunfig.toml preloads the test setup", () => {
  const s = betterTStack();
  const { callbacks } = init(s);
  expect(argv(callbacks.get("bun-test"))).toBe("cd apps/cli && bun test");
  expect(callbacks.get("bun-test")?.cwd).toBeUndefined();
  commit(s.root, "cpilot init");
  execFileSync("sh", ["-c", `: > '${s.log}'`]);
  // an edit in packages/types, outside apps/cli: the root's callback runs apps/cli's tests
  const check = cpilot(["check", "packages/types/src/constants.ts"], { cwd: s.root, env: s.env });
  expect(check.code).toBe(0);
  expect(ran(s).filter((r) => r.tool === "bun")).toEqual([
    { cwd: "apps/cli", tool: "bun", args: ["test"] },
  ]);
});

test("microsoft/vscode-languageserver-node (npm packages side by side, a solution tsconfig over their own solutions): the type check is the root's `compile`, `tsc -b tsconfig.json`, not `compile:types`, which builds the package named types alone", () => {
  const s = setUp("vscode-languageserver-node", ({ root, log }) => {
    for (const tool of ["tsc", "eslint"])
      writeTool(join(root, "node_modules/.bin", tool), RECORDER(log, tool));
  });
  const { callbacks, plan } = init(s);
  expect(argv(callbacks.get("typecheck"))).toBe("node_modules/.bin/tsc -b tsconfig.json");
  expect(plan).toContain('from package.json script "compile" runs tsc');
  commit(s.root, "cpilot init");
  const tree = treeState(s.root);
  expect(cpilot(["check", "--all"], { cwd: s.root, env: s.env }).code).toBe(0);
  expect(changedOwn(s, tree)).toEqual([]);
  // an edit in textDocument builds the whole solution, from the root, as `npm run compile` does
  execFileSync("sh", ["-c", `: > '${s.log}'`]);
  const edit = cpilot(["check", "textDocument/src/main.ts"], { cwd: s.root, env: s.env });
  expect(edit.code).toBe(0);
  expect(ran(s).filter((r) => r.tool === "tsc")).toEqual([
    { cwd: ".", tool: "tsc", args: ["-b", "tsconfig.json"] },
  ]);
});

/**
 * As eslint with `parserOptions.project: './src/tsconfig.json'` reads it: from the folder it
 * runs in, a parse error on every file it is handed where there is none.
 */
const ESLINT_PROJECT_FROM_CWD = `if [ ! -f src/tsconfig.json ]; then
  for f in "$@"; do case "$f" in -*) ;; *) printf '%s\\n  0:0  error  Parsing error: Cannot read file %s\\n' "$f" "'$(pwd -P)/src/tsconfig.json'";; esac; done
  exit 1
fi
`;

test("microsoft/vscode-languageserver-node (npm packages side by side, no workspaces, each linted by its own `eslint src` from its folder): each package's eslint runs in its folder on its files, and the root lints nothing it never lints", () => {
  const s = setUp("vscode-languageserver-node", ({ root, log }) => {
    writeTool(join(root, "node_modules/.bin/tsc"), RECORDER(log, "tsc"));
    writeTool(
      join(root, "node_modules/.bin/eslint"),
      RECORDER(log, "eslint", ESLINT_PROJECT_FROM_CWD),
    );
    // the runner of every package's scripts (`npm run lint` is `node ./build/bin/all.js run lint`)
    writeFiles(root, { "build/bin/all.js": "'use strict';\nconst folders = ['types'];\n" });
  });
  const { callbacks, plan } = init(s);
  expect([...callbacks.keys()].sort()).toEqual(
    ["eslint-textdocument", "eslint-types", "typecheck"].sort(),
  );
  expect(callbacks.get("eslint-types")).toMatchObject({ cwd: "types" });
  expect(callbacks.get("eslint-textdocument")).toMatchObject({ cwd: "textDocument" });
  expect(argv(callbacks.get("eslint-types"))).toBe(
    "../node_modules/.bin/eslint --no-warn-ignored {files}",
  );
  expect(callbacks.get("eslint-types")?.pattern).toContain("types/src/**/*.ts");
  expect(plan).toContain(
    'types: package.json script "lint" runs eslint on src in its own folder (an npm package beside the root, no workspace lists it)',
  );
  expect(plan).toContain("eslint at the root: left out");
  expect(plan).not.toContain("no workspace lists it: textDocument");
  commit(s.root, "cpilot init");

  const tree = treeState(s.root);
  const all = cpilot(["check", "--all"], { cwd: s.root, env: s.env });
  expect(all.stderr).not.toContain("Cannot read file");
  expect(all.code).toBe(0);
  expect(changedOwn(s, tree)).toEqual([]);
  const linted = ran(s)
    .filter((r) => r.tool === "eslint")
    .map((r) => ({ cwd: r.cwd, files: r.args.filter((a) => !a.startsWith("-")) }))
    .sort((a, b) => (a.cwd < b.cwd ? -1 : 1));
  expect(linted).toEqual([
    { cwd: "textDocument", files: ["src/main.ts"] },
    { cwd: "types", files: ["src/main.ts"] },
  ]);

  // an edit in types lints types alone, from types
  execFileSync("sh", ["-c", `: > '${s.log}'`]);
  writeFiles(s.root, { "types/src/main.ts": "export const edited = 1;\n" });
  const edit = cpilot(["check", "types/src/main.ts", "build/bin/all.js"], {
    cwd: s.root,
    env: s.env,
  });
  expect(edit.code).toBe(0);
  expect(ran(s).filter((r) => r.tool === "eslint")).toEqual([
    { cwd: "types", tool: "eslint", args: ["--no-warn-ignored", "src/main.ts"] },
  ]);
});

test("a bun workspace with bun's isolated linker, before `bun install`: a package's own tool is looked for in its own node_modules/.bin, where bun links it (create-better-t-stack's apps/web and its eslint)", () => {
  const root = tempDir("cpilot-bun-isolated-", { git: true });
  writeFiles(root, {
    "package.json": JSON.stringify({
      name: "better-t-stack",
      private: true,
      workspaces: { packages: ["apps/*"] },
      packageManager: "bun@1.3.14",
    }),
    "bunfig.toml":
      '[install]\nlinker = "isolated"\n\n[test]\ncoverage = true\ncoverageReporter = ["text", "lcov"]\n',
    "apps/web/package.json": JSON.stringify({
      name: "web",
      private: true,
      devDependencies: { eslint: "^9.39.2", "eslint-config-next": "16.1.6" },
    }),
    "apps/web/eslint.config.mjs": "export default [];\n",
    "apps/web/src/page.ts": "export const page = 1;\n",
  });
  commit(root, "snapshot");
  const r = cpilot(["init", "--yes", "--format", "json"], { cwd: root, env: { CI: "" } });
  expect(r.code).toBe(0);
  const config = JSON.parse(readFileSync(join(root, "callbacks.config.json"), "utf8")) as {
    callbacks: { name: string; run: string[] | string; cwd?: string }[];
  };
  const eslint = config.callbacks.find((c) => c.name === "eslint-apps-web");
  expect(eslint).toMatchObject({ cwd: "apps/web" });
  expect(argv(eslint as Parameters<typeof argv>[0])).toBe(
    "node_modules/.bin/eslint --no-warn-ignored {files}",
  );
});
