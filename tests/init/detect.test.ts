import { expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { detectProject } from "../../src/init/detect.ts";
import { ProjectFiles } from "../../src/init/project-files.ts";
import { detectStyle } from "../../src/init/style.ts";
import { compilePatterns } from "../../src/match/pattern.ts";
import { tempDir, writeFiles } from "../helpers/tmp.ts";

function project(files: Record<string, string>): string {
  const root = tempDir("cpilot-detect-");
  writeFiles(root, files);
  return root;
}

const summary = (root: string) =>
  detectProject(root).proposals.map(({ callback: c }) => [
    c.name,
    Array.isArray(c.run) ? c.run.join(" ") : c.run,
  ]);

test("Go: gofmt, and golangci-lint when configured (else go vet)", () => {
  expect(summary(project({ "go.mod": "module x\n" }))).toEqual([
    ["gofmt", "gofmt -w {files}"],
    ["go-vet", "go vet ./..."],
    ["go-test", "go test ./..."],
  ]);
  expect(summary(project({ "go.mod": "module x\n", ".golangci.yml": "linters: {}\n" }))).toEqual([
    ["gofmt", "gofmt -w {files}"],
    ["golangci-lint", "golangci-lint run ./..."],
    ["go-test", "go test ./..."],
  ]);
});

test("Go: where the project runs go test and never go vet, the analyzers go test runs; all of vet where it runs vet", () => {
  const ci = (run: string) => ({
    "go.mod": "module x\n",
    ".github/workflows/test.yml": `jobs:\n  test:\n    steps:\n      - run: ${run}\n`,
  });
  const vet = (files: Record<string, string>) =>
    new Map(summary(project(files)).map(([n, r]) => [n, r] as const)).get("go-vet");
  // cespare/xxhash: CI runs `go test ./...`; a full vet fails on its assembly (asmdecl)
  expect(vet(ci("go test -count 1 ./..."))).toBe(
    "go vet -atomic -bools -buildtag -errorsas -ifaceassert -nilfunc -printf -stringintconv ./...",
  );
  expect(vet(ci("go vet ./... && go test ./..."))).toBe("go vet ./...");
});

test("Go: a module that compiles another of the project's from its folder (a local replace, go.work) is vetted on that one's edits too", () => {
  const pattern = (root: string, name: string) =>
    detectProject(root).proposals.find((p) => p.callback.name === name)?.callback.pattern;
  // cespare/xxhash: xxhashbench/ requires the root module, replaced by `../`
  const replaced = project({
    "go.mod": "module example.com/x/v2\n",
    "xxhashbench/go.mod":
      "module example.com/x/bench\n\nrequire example.com/x/v2 v2.0.0\n\nreplace example.com/x/v2 => ../\n",
    "tools/go.mod": "module example.com/x/tools\n",
  });
  const bench = compilePatterns(pattern(replaced, "go-vet-xxhashbench") ?? []);
  expect(["xxhash.go", "go.mod", "xxhashbench/b_test.go"].filter((f) => bench.matches(f))).toEqual([
    "xxhash.go",
    "go.mod",
    "xxhashbench/b_test.go",
  ]);
  // another nested module is not the root module's code
  expect(bench.matches("tools/t.go")).toBe(false);
  expect(pattern(replaced, "go-vet-tools")).toEqual(["tools/**/*.go", "tools/**/go.mod"]);
  // the root replaced by a nested one, in a replace block: the root's vet follows it
  const block = project({
    "go.mod": "module a\n\nrequire b v0.0.0\n\nreplace (\n\tb => ./lib/b\n)\n",
    "lib/b/go.mod": "module b\n",
  });
  const top = compilePatterns(pattern(block, "go-vet") ?? []);
  expect(["main.go", "lib/b/b.go"].filter((f) => top.matches(f))).toEqual([
    "main.go",
    "lib/b/b.go",
  ]);
  // a go.work: modules read each other's folders by the module path they require
  const work = project({
    "go.work": "go 1.22\n\nuse (\n\t./api\n\t./cmd\n)\n",
    "api/go.mod": "module example.com/api\n",
    "cmd/go.mod": "module example.com/cmd\n\nrequire (\n\texample.com/api v0.1.0 // indirect\n)\n",
  });
  expect(compilePatterns(pattern(work, "go-test-cmd") ?? []).matches("api/api.go")).toBe(true);
  expect(compilePatterns(pattern(work, "go-test-api") ?? []).matches("cmd/main.go")).toBe(false);
});

test("before install, a package's tools are named where its package manager will put them", () => {
  const run = (root: string, name: string) => {
    const c = detectProject(root).proposals.find((p) => p.callback.name === name)?.callback.run;
    return Array.isArray(c) ? c[0] : c?.split(" ")[0];
  };
  const pkg = (deps: Record<string, string>) =>
    JSON.stringify({
      name: "a",
      scripts: { lint: "eslint src", typecheck: "tsc" },
      devDependencies: deps,
    });
  const files = {
    "packages/a/package.json": pkg({ eslint: "^9.0.0" }),
    "packages/a/tsconfig.json": "{}\n",
    "packages/a/eslint.config.js": "export default [];\n",
  };
  const rootPkg = (extra: object) =>
    JSON.stringify({
      private: true,
      devDependencies: { typescript: "^5.0.0", eslint: "^9.0.0" },
      ...extra,
    });
  // TanStack/store: pnpm links the root's typescript into the root's .bin only
  const pnpm = project({
    "package.json": rootPkg({}),
    "pnpm-workspace.yaml": "packages:\n  - packages/*\n",
    ...files,
  });
  expect(run(pnpm, "typecheck-packages-a")).toBe("../../node_modules/.bin/tsc");
  expect(run(pnpm, "eslint-packages-a")).toBe("node_modules/.bin/eslint");
  // npm hoists both to the root, the package's eslint too (the same range)
  const npm = project({ "package.json": rootPkg({ workspaces: ["packages/*"] }), ...files });
  expect(run(npm, "typecheck-packages-a")).toBe("../../node_modules/.bin/tsc");
  expect(run(npm, "eslint-packages-a")).toBe("../../node_modules/.bin/eslint");
  // another version than the root's stays in the package
  const own = project({
    "package.json": rootPkg({ workspaces: ["packages/*"] }),
    ...files,
    "packages/a/package.json": pkg({ eslint: "^8.57.0" }),
  });
  expect(run(own, "eslint-packages-a")).toBe("node_modules/.bin/eslint");
});

test("a Makefile's lint/fmt/check targets, when no tool was found for the project", () => {
  const root = project({
    Makefile: "lint:\n\tshellcheck *.sh\nfmt:\n\tshfmt -w .\nbuild:\n\tcc x.c\n",
  });
  expect(summary(root)).toEqual([
    ["make-lint", "make lint"],
    ["make-fmt", "make fmt"],
  ]);
  expect(summary(project({ justfile: "check:\n  cargo check\n" }))).toEqual([
    ["just-check", "just check"],
  ]);
});

test("Python: the project's venv binaries, tox.ini and setup.cfg sections, ruff as configured", () => {
  const root = project({
    "pyproject.toml": "[tool.ruff]\nline-length = 100\n",
    "tox.ini": "[mypy]\nstrict = True\n",
    ".venv/bin/ruff": "",
    ".venv/bin/mypy": "",
  });
  expect(summary(root)).toEqual([
    // no --fix and no ruff format: nothing shows the project runs either
    ["ruff", ".venv/bin/ruff check --quiet {files}"],
    ["mypy", ".venv/bin/mypy --show-column-numbers {files}"],
  ]);
  // A project that requires mypy 1.11 or later gets its JSON output (end columns, hints).
  expect(
    summary(project({ "mypy.ini": "[mypy]\n", "requirements.txt": "mypy==1.13.0\n" })),
  ).toEqual([["mypy", "mypy -O json {files}"]]);
  expect(summary(project({ "mypy.ini": "[mypy]\n", "requirements.txt": "mypy>=1.4\n" }))).toEqual([
    ["mypy", "mypy --show-column-numbers {files}"],
  ]);
  expect(summary(project({ "setup.cfg": "[isort]\nprofile = black\n[flake8]\n" }))).toEqual([
    ["isort", "isort --quiet {files}"],
    ["flake8", "flake8 {files}"],
  ]);
});

test("Rust: a workspace without an edition uses cargo fmt --all (each crate's own edition); clippy on the workspace", () => {
  const root = project({ "Cargo.toml": '[workspace]\nmembers = ["a"]\n' });
  expect(summary(root)).toEqual([
    ["rustfmt", "cargo fmt --all"],
    [
      "clippy",
      "cargo clippy --workspace --all-targets --quiet --message-format short -- -D warnings",
    ],
    ["cargo-test", "cargo test --workspace --quiet"],
  ]);
  const shared = project({
    "Cargo.toml": '[workspace]\nmembers = ["a"]\n[workspace.package]\nedition = "2024"\n',
  });
  expect(summary(shared)[0]).toEqual(["rustfmt", "rustfmt --edition 2024 {files}"]);
});

test("deno.json: deno fmt and deno lint; legacy .eslintrc: eslint without the flat-config flag", () => {
  expect(summary(project({ "deno.json": "{}" })).map(([n]) => n)).toEqual([
    "deno-fmt",
    "deno-lint",
  ]);
  const legacy = project({
    "package.json": JSON.stringify({ scripts: { lint: "npx eslint 'lib/**/*.{js,ts}'" } }),
    ".eslintrc.json": "{}",
  });
  const eslint = detectProject(legacy).proposals[0]!.callback;
  expect(eslint.run).toEqual(["node_modules/.bin/eslint", "{files}"]);
  expect(eslint.pattern).toEqual(["lib/**/*.js", "lib/**/*.ts"]);
});

test("the project's style: biome's defaults are tabs; prettier options in package.json; editorconfig", () => {
  const biome = detectStyle(new ProjectFiles(project({ "biome.json": "{}" })));
  expect([biome.useTabs, biome.singleQuote]).toEqual([true, false]);
  const pkg = detectStyle(
    new ProjectFiles(
      project({ "package.json": JSON.stringify({ prettier: { singleQuote: true, semi: false } }) }),
    ),
  );
  expect([pkg.singleQuote, pkg.semi]).toEqual([true, false]);
  const editor = detectStyle(
    new ProjectFiles(project({ ".editorconfig": "[*]\nindent_style = space\nindent_size = 4\n" })),
  );
  expect([editor.useTabs, editor.indentWidth]).toEqual([false, 4]);
});

test("a script's flag values are not its scope: eslint src --ext .ts,.tsx --max-warnings 0", () => {
  const root = project({
    "package.json": JSON.stringify({
      scripts: { lint: "eslint src --ext .ts,.tsx --max-warnings 0" },
    }),
    ".eslintrc.cjs": "module.exports = {};\n",
  });
  const eslint = detectProject(root).proposals[0]!.callback;
  expect((eslint.pattern as string[]).every((p) => p.startsWith("src/**/*."))).toBe(true);
});

test("a dependency is not evidence: prettier and black only in the dependencies are left out, and said", () => {
  const root = project({
    "package.json": JSON.stringify({
      scripts: { check: "biome check --write ." },
      devDependencies: { "@biomejs/biome": "2.0.0", prettier: "3.0.0" },
    }),
    "biome.json": "{}",
  });
  expect(summary(root).map(([n]) => n)).toEqual(["biome"]);
  const detection = detectProject(root);
  expect(detection.notes.join("\n")).toContain("prettier: left out, only a dependency");
  const python = project({ "pyproject.toml": '[project]\ndependencies = ["black>=24"]\n' });
  expect(summary(python)).toEqual([]);
});

test("what the project runs decides the flags: --max-warnings kept, isort --check-only, ruff --fix only where run so, prettier 2's --loglevel", () => {
  const eslint = project({
    "package.json": JSON.stringify({
      scripts: { lint: "eslint --max-warnings 0 src" },
      devDependencies: { eslint: "9.0.0", prettier: "^2.8.0" },
    }),
    "eslint.config.js": "export default [];\n",
    ".prettierrc": "{}\n",
  });
  const s = new Map(summary(eslint).map(([n, r]) => [n, r] as const));
  expect(s.get("eslint")).toBe(
    "node_modules/.bin/eslint --no-warn-ignored --max-warnings 0 {files}",
  );
  expect(s.get("prettier")).toContain("--loglevel warn");
  const py = project({
    "pyproject.toml": "[tool.ruff]\n[tool.isort]\n",
    ".pre-commit-config.yaml":
      "repos:\n  - repo: x\n    hooks:\n      - id: ruff\n        args: [--fix]\n      - id: isort\n        args: [--check-only]\n",
  });
  expect(new Map(summary(py).map(([n, r]) => [n, r] as const))).toEqual(
    new Map([
      ["ruff", "ruff check --fix --quiet {files}"],
      ["isort", "isort --check-only --diff --quiet {files}"],
    ]),
  );
});

test("ruff's own `fix = true` makes a plain `ruff check` fix: proposed as the fixer it is, or held back with --no-fix", () => {
  const ruffRun = (files: Record<string, string>) =>
    detectProject(project(files)).proposals.find((p) => p.callback.name === "ruff")?.callback;
  // pallets/itsdangerous: `[tool.ruff] fix = true`, pre-commit runs the bare `ruff` hook
  const hook = ".pre-commit-config.yaml";
  const bare = "repos:\n  - repo: x\n    hooks:\n      - id: ruff\n";
  expect(ruffRun({ "pyproject.toml": "[tool.ruff]\nfix = true\n", [hook]: bare })).toMatchObject({
    run: ["ruff", "check", "--fix", "--quiet", "{files}"],
    fixes: true,
  });
  expect(
    ruffRun({
      "pyproject.toml": '[project]\nname = "x"\n',
      "ruff.toml": "fix = true\n[lint]\nselect = []\n",
      [hook]: bare,
    }),
  ).toMatchObject({ run: ["ruff", "check", "--fix", "--quiet", "{files}"], fixes: true });
  // the project's own command line turns it off: so does cpilot's, or the settings would fix
  const noFix = "repos:\n  - repo: x\n    hooks:\n      - id: ruff\n        args: [--no-fix]\n";
  const held = ruffRun({ "pyproject.toml": "[tool.ruff]\nfix = true\n", [hook]: noFix });
  expect(held?.run).toEqual(["ruff", "check", "--no-fix", "--quiet", "{files}"]);
  expect(held?.fixes).toBeUndefined();
  expect(ruffRun({ "pyproject.toml": "[tool.ruff]\nfix = false\n", [hook]: bare })?.run).toEqual([
    "ruff",
    "check",
    "--quiet",
    "{files}",
  ]);
});

test("a script's `src/**/*` is the tool's kinds of file there, never a Markdown or JSON file", () => {
  // mobxjs/mobx: `eslint src/**/* --ext .js,.ts,.tsx`, eslint 6 with a legacy config
  const root = project({
    "package.json": JSON.stringify({
      scripts: { lint: "eslint src/**/* --ext .js,.ts,.tsx", check: "eslint packages/*" },
      devDependencies: { eslint: "^6.8.0" },
    }),
    ".eslintrc.js": "module.exports = {};\n",
  });
  const eslint = detectProject(root).proposals.find((p) => p.callback.name === "eslint");
  const m = compilePatterns(eslint?.callback.pattern ?? []);
  const files = ["src/a.ts", "src/deep/b.tsx", "src/notes.md", "src/data.json", "packages/x/c.js"];
  expect(files.filter((f) => m.matches(f))).toEqual([
    "src/a.ts",
    "src/deep/b.tsx",
    "packages/x/c.js",
  ]);
});

test("a config left behind is not evidence: .flake8 beside ruff that CI runs", () => {
  const root = project({
    "pyproject.toml": "[tool.ruff]\n",
    ".flake8": "[flake8]\nmax-line-length = 100\n",
    ".github/workflows/ci.yml": "jobs:\n  lint:\n    steps:\n      - run: ruff check .\n",
  });
  expect(summary(root).map(([n]) => n)).toEqual(["ruff"]);
  expect(detectProject(root).notes.join("\n")).toContain("flake8: left out");
});

test("tests where the project has them: make test when no runner of its own is found", () => {
  const django = project({
    "pyproject.toml": "[tool.ruff]\n",
    Makefile: "test:\n\tpython manage.py test\n",
  });
  expect(summary(django)).toEqual([
    ["ruff", "ruff check --quiet {files}"],
    ["make-test", "make test"],
  ]);
  const withPytest = project({
    "pyproject.toml": '[tool.pytest]\nminversion = "9.0"\n',
    Makefile: "test:\n\tpytest\n",
  });
  expect(summary(withPytest).map(([n]) => n)).toEqual(["pytest"]);
});

test("biome as the project runs it: --write only where it writes, the formatter only where it formats with biome", () => {
  const biome = (files: Record<string, string>) =>
    summary(project({ "biome.json": "{}", ...files }))
      .filter(([n]) => n?.startsWith("biome"))
      .map(([n, run]) => `${n}: ${run?.split(" ").slice(1, 3).join(" ")}`);
  const pkg = (scripts: Record<string, string>) => JSON.stringify({ scripts });
  // CI runs `biome ci`: formats and checks, never fixes
  expect(
    biome({ ".github/workflows/ci.yml": "jobs:\n  x:\n    steps:\n      - run: npx biome ci .\n" }),
  ).toEqual(["biome-format: format --write", "biome: check --no-errors-on-unmatched"]);
  // biome's own pre-commit hook `biome-check` applies its safe fixes
  expect(
    biome({
      ".pre-commit-config.yaml":
        "repos:\n  - repo: https://github.com/biomejs/pre-commit\n    hooks:\n      - id: biome-check\n",
    }),
  ).toEqual(["biome: check --write"]);
  // a lefthook command named biome-check that only checks is not that hook
  expect(
    biome({
      "lefthook.yml":
        "pre-commit:\n  commands:\n    biome-check:\n      run: npx @biomejs/biome check {staged_files}\n",
    }),
  ).toEqual(["biome-format: format --write", "biome: check --no-errors-on-unmatched"]);
  // npx by the package's name
  expect(biome({ "package.json": pkg({ fix: "npx @biomejs/biome check --write ." }) })).toEqual([
    "biome: check --write",
  ]);
  // a husky hook is a hook config too
  expect(biome({ ".husky/pre-commit": "npx biome check --write --staged\n" })).toEqual([
    "biome: check --write",
  ]);
  expect(biome({ ".husky/pre-commit": "npx biome check --staged\n" })).toEqual([
    "biome-format: format --write",
    "biome: check --no-errors-on-unmatched",
  ]);
  // prettier formats; biome only lints
  expect(biome({ "package.json": pkg({ lint: "biome lint ." }) })).toEqual([
    "biome: lint --no-errors-on-unmatched",
  ]);
  expect(biome({ "package.json": pkg({ lint: "biome lint --write ." }) })).toEqual([
    "biome: lint --write",
  ]);
  // biome formats; the lint is what the project runs beside it
  expect(
    biome({ "package.json": pkg({ format: "biome format --write .", lint: "biome lint ." }) }),
  ).toEqual(["biome-format: format --write", "biome: lint --no-errors-on-unmatched"]);
  expect(biome({ "package.json": pkg({ fmt: "biome format --write ." }) })).toEqual([
    "biome-format: format --write",
  ]);
  // formatter off in biome.json: nothing to format with
  expect(
    biome({
      "biome.json": JSON.stringify({ formatter: { enabled: false } }),
      "package.json": pkg({ check: "biome check ." }),
    }),
  ).toEqual(["biome: check --no-errors-on-unmatched"]);
  // only a biome.json, nothing shows how it runs: format, and report the rest
  expect(biome({})).toEqual([
    "biome-format: format --write",
    "biome: check --no-errors-on-unmatched",
  ]);
});

test("test runners with no related-tests mode: the project's own command, whole, in the background", () => {
  const tests = (scripts: Record<string, string>, files: Record<string, string> = {}) => {
    const found = detectProject(project({ "package.json": JSON.stringify({ scripts }), ...files }))
      .proposals.filter((x) => x.callback.blocking === false)
      .map(({ callback: c }) => `${c.name}: ${c.run}`);
    return found;
  };
  // sindresorhus: xo lints, ava tests, tsd checks the types
  expect(tests({ test: "xo && ava && tsd" })).toEqual(["ava: node_modules/.bin/ava"]);
  // the tests read what the build writes: the builds the script runs first, then the runner
  expect(tests({ test: "xo && npm run build && ava" })).toEqual([
    "ava: npm run build && node_modules/.bin/ava",
  ]);
  expect(tests({ pretest: "npm run lint && tsc -p .", test: "mocha" })).toEqual([
    "mocha: node_modules/.bin/tsc -p . && node_modules/.bin/mocha",
  ]);
  expect(tests({ test: "node --test" })).toEqual(["node-test: node --test"]);
  // globs as the script quotes them (bash reads the command); --watch never ends
  expect(tests({ test: "node --experimental-strip-types --test 'test/**/*.test.ts'" })).toEqual([
    "node-test: node --experimental-strip-types --test 'test/**/*.test.ts'",
  ]);
  expect(tests({ test: "tsx --test --watch test/" })).toEqual([
    "node-test: node_modules/.bin/tsx --test test/",
  ]);
  // coverage wrappers are left out: the agent needs the failures
  expect(tests({ test: "nyc --reporter=lcov mocha --recursive" })).toEqual([
    "mocha: node_modules/.bin/mocha --recursive",
  ]);
  expect(tests({ test: "c8 tap" })).toEqual(["tap: node_modules/.bin/tap"]);
  expect(tests({ test: "nyc --include=mocha-helpers mocha test/" })).toEqual([
    "mocha: node_modules/.bin/mocha test/",
  ]);
  expect(tests({ test: "uvu -r tsm tests" })).toEqual(["uvu: node_modules/.bin/uvu -r tsm tests"]);
  expect(tests({ lint: "eslint .", "test:unit": "bun test" })).toEqual(["bun-test: bun test"]);
  // through another script
  expect(tests({ test: "npm run lint && npm run spec", spec: "mocha 'src/**/*.spec.js'" })).toEqual(
    ["mocha: node_modules/.bin/mocha 'src/**/*.spec.js'"],
  );
  // a word in another tool's arguments is not the runner
  expect(tests({ lint: "eslint --env mocha ." })).toEqual([]);
  // no script, but its config and the dependency
  expect(
    tests(
      {},
      {
        ".mocharc.yml": "spec: test\n",
        "package.json": JSON.stringify({ devDependencies: { mocha: "11" } }),
      },
    ),
  ).toEqual(["mocha: node_modules/.bin/mocha"]);
  // vitest, which runs the tests related to the edit, wins
  expect(tests({ test: "vitest && ava" })[0]).toStartWith("vitest: ");
});

/** In a git repository, every file tracked but `untracked`. */
function trackedProject(files: Record<string, string>, untracked: Record<string, string> = {}) {
  const root = tempDir("cpilot-detect-", { git: true });
  writeFiles(root, files);
  execFileSync("git", ["add", "-A"], { cwd: root });
  writeFiles(root, untracked);
  return root;
}

const SIDE_BY_SIDE = {
  "package.json": JSON.stringify({
    scripts: { lint: "eslint scripts && node run-all.js lint" },
    devDependencies: { eslint: "^9.0.0", oxlint: "^1.0.0" },
  }),
  "eslint.config.js": "module.exports = [];\n",
  "a/package.json": JSON.stringify({ scripts: { lint: "eslint src --max-warnings 0" } }),
  "a/eslint.config.js": "module.exports = [];\n",
  "b/package.json": JSON.stringify({ scripts: { lint: "oxlint src" } }),
  "b/.oxlintrc.json": "{}\n",
  // no eslint config of its own
  "c/package.json": JSON.stringify({ scripts: { lint: "eslint ." } }),
  "fixtures/d/package.json": JSON.stringify({ scripts: { lint: "eslint src" } }),
  "fixtures/d/eslint.config.js": "module.exports = [];\n",
};

test("npm packages side by side, no workspaces: each one's linter its lint script runs, with its own config, runs in its folder with the script's flags; the root's covers what its script lints, without them", () => {
  const root = trackedProject(SIDE_BY_SIDE, {
    "e/package.json": JSON.stringify({ scripts: { lint: "eslint src" } }),
    "e/eslint.config.js": "module.exports = [];\n",
  });
  const found = detectProject(root);
  const byName = new Map(found.proposals.map((p) => [p.callback.name, p]));
  expect([...byName.keys()].sort()).toEqual(["eslint", "eslint-a", "oxlint-b"]);
  const a = byName.get("eslint-a")!;
  expect(a.callback.cwd).toBe("a");
  expect(a.callback.run).toEqual([
    "../node_modules/.bin/eslint",
    "--no-warn-ignored",
    "--max-warnings",
    "0",
    "{files}",
  ]);
  expect(a.why).toBe(
    'a: package.json script "lint" runs eslint on src in its own folder (an npm package beside the root, no workspace lists it)',
  );
  expect(byName.get("oxlint-b")?.callback.cwd).toBe("b");
  const rootLint = compilePatterns(byName.get("eslint")!.callback.pattern);
  expect(
    ["scripts/x.js", "a/src/x.ts", "a/scripts/x.js", "c/x.js", "b/src/x.ts"].filter((f) =>
      rootLint.matches(f),
    ),
  ).toEqual(["scripts/x.js"]);
  // untracked (e), no eslint config of its own (c), test data (fixtures/d)
  expect(found.notes).toContain(
    "3 folders left out (node), no workspace lists it: e, c, fixtures/d",
  );
});

test("a root eslint that only its config file proposes is left out where the packages beside it lint themselves", () => {
  const root = trackedProject({
    ...SIDE_BY_SIDE,
    "package.json": JSON.stringify({
      scripts: { lint: "node run-all.js lint" },
      devDependencies: { eslint: "^9.0.0" },
    }),
  });
  const found = detectProject(root);
  expect(found.proposals.map((p) => p.callback.name).sort()).toEqual(["eslint-a", "oxlint-b"]);
  expect(found.notes).toContain(
    "eslint at the root: left out, no root script runs it and the packages beside it run their own (eslint.config.js)",
  );
});

test("a monorepo with workspaces keeps a package no workspace lists out, linter and all", () => {
  const root = trackedProject({
    ...SIDE_BY_SIDE,
    "package.json": JSON.stringify({ workspaces: ["c"], scripts: { lint: "eslint ." } }),
  });
  const found = detectProject(root);
  expect(found.proposals.map((p) => p.callback.name).sort()).toEqual(["eslint", "eslint-c"]);
  expect(found.proposals[0]?.callback.pattern).not.toContain("!a/**");
  expect(found.notes).toContain(
    "3 folders left out (node), no workspace lists it: a, b, fixtures/d",
  );
});
