import { expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { projectShape } from "../../src/project/packages.ts";
import { tempDir, writeFiles } from "../helpers/tmp.ts";

const shape = (root: string) => {
  const s = projectShape(root);
  return {
    packages: s.packages.map((p) => `${p.kind} ${p.dir || "."}`),
    left: s.left.map((p) => `${p.kind} ${p.dir}`).sort(),
  };
};

test("pnpm workspaces: members are packages, a fixture's package.json and node_modules are not", () => {
  const root = tempDir("cpilot-shape-", { git: true });
  writeFiles(root, {
    "package.json": JSON.stringify({ private: true }),
    "pnpm-workspace.yaml": "packages:\n  - 'apps/*'\n  - \"packages/**\"\ncatalog:\n  x: 1\n",
    "apps/web/package.json": "{}",
    "packages/ui/core/package.json": "{}",
    "packages/ui/core/test/fixtures/pkg/package.json": "{}",
    "tools/package.json": "{}",
    "node_modules/dep/package.json": "{}",
  });
  expect(shape(root)).toEqual({
    packages: [
      "node .",
      "node apps/web",
      "node packages/ui/core",
      "node packages/ui/core/test/fixtures/pkg",
    ],
    left: ["node tools"],
  });
});

test("npm/yarn workspaces in package.json, as an array or { packages }", () => {
  for (const workspaces of [["packages/*"], { packages: ["packages/*"] }]) {
    const root = tempDir("cpilot-shape-", { git: true });
    writeFiles(root, {
      "package.json": JSON.stringify({ workspaces }),
      "packages/a/package.json": "{}",
      "packages/b/package.json": "{}",
      "scripts/fixture/package.json": "{}",
    });
    expect(shape(root)).toEqual({
      packages: ["node .", "node packages/a", "node packages/b"],
      left: ["node scripts/fixture"],
    });
  }
});

test("a Cargo workspace: members (globs, exclude) are packages, a nested crate outside it is not", () => {
  const root = tempDir("cpilot-shape-", { git: true });
  writeFiles(root, {
    "Cargo.toml":
      '[workspace]\nmembers = [\n  "crates/*", # all\n  "cli",\n]\nexclude = ["crates/old"]\n',
    "crates/core/Cargo.toml": "[package]\n",
    "crates/old/Cargo.toml": "[package]\n",
    "cli/Cargo.toml": "[package]\n",
    "fuzz/Cargo.toml": "[package]\n",
    "target/debug/build/x/Cargo.toml": "",
  });
  expect(shape(root)).toEqual({
    packages: ["rust .", "rust cli", "rust crates/core"],
    left: ["rust crates/old", "rust fuzz"],
  });
});

test("every go.mod is a module, but not under testdata or vendor; nested python projects and uv members", () => {
  const root = tempDir("cpilot-shape-", { git: true });
  writeFiles(root, {
    "go.mod": "module x\n",
    "tools/go.mod": "module x/tools\n",
    "internal/testdata/go.mod": "module t\n",
    "pyproject.toml": '[project]\nname = "x"\n[tool.uv.workspace]\nmembers = ["libs/*"]\n',
    "libs/a/pyproject.toml": "[tool.ruff]\n",
    "sdk/pyproject.toml": '[project]\nname = "sdk"\n',
    "tests/fixtures/p/pyproject.toml": '[project]\nname = "f"\n',
  });
  execFileSync("python3", ["-m", "venv", "--without-pip", `${root}/.venv`]);
  writeFiles(root, { ".venv/lib/x/pyproject.toml": '[project]\nname = "v"\n' });
  expect(shape(root)).toEqual({
    packages: ["go .", "python .", "python libs/a", "python sdk", "go tools"],
    left: ["go internal/testdata", "python tests/fixtures/p"],
  });
});

test("a go.work: the modules it uses are packages, one it leaves out is not (hashicorp/consul's shape)", () => {
  const root = tempDir("cpilot-shape-", { git: true });
  writeFiles(root, {
    "go.work":
      "go 1.22.5\n\n// e2e modules are omitted: they claim to be the main module.\nuse (\n\t.\n\t./api\n\t./internal/tools/proto-gen-rpc-glue // the generator\n)\n\nuse ./sdk\n",
    "go.mod": "module github.com/hashicorp/consul\n",
    "api/go.mod": "module github.com/hashicorp/consul/api\n",
    "sdk/go.mod": "module github.com/hashicorp/consul/sdk\n",
    "internal/tools/proto-gen-rpc-glue/go.mod": "module x\n",
    "internal/tools/proto-gen-rpc-glue/e2e/go.mod": "module y\n",
  });
  expect(shape(root)).toEqual({
    packages: ["go .", "go api", "go internal/tools/proto-gen-rpc-glue", "go sdk"],
    left: ["go internal/tools/proto-gen-rpc-glue/e2e"],
  });
  // without go.work every go.mod is a module of its own
  execFileSync("git", ["rm", "-q", "--cached", "--ignore-unmatch", "go.work"], { cwd: root });
  execFileSync("rm", [`${root}/go.work`]);
  expect(shape(root).left).toEqual([]);
});
