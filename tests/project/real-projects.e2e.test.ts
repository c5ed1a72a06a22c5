/**
 * Public projects of several shapes, each a small snapshot of its real tree under
 * tests/fixtures/projects/real-*: `cpilot init --yes`, then `check --all`. What a project
 * runs but this machine cannot install (go, golangci-lint, oxfmt/oxlint, cargo's clippy
 * and test, ruff and mypy in a fresh virtualenv) is a recorder standing in for it: it
 * logs the folder it ran in and its arguments. rustfmt is the real one where it is here.
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
  rustfmt,
  setUp,
  writeTool,
} from "./real-project-kit.ts";

test.skipIf(!hasPython)(
  "encode/httpx (ruff + mypy + pytest, a .venv git does not ignore): ruff as its scripts run it, mypy over the package, nothing in the .venv touched",
  () => {
    const s = setUp("httpx", ({ root, log }) => {
      execFileSync("python3", ["-m", "venv", "--without-pip", join(root, ".venv")]);
      writeFiles(root, { ".venv/lib/site-packages/installed/mod.py": "import os,sys\n" });
      for (const tool of ["ruff", "mypy", "pytest"])
        writeTool(join(root, ".venv/bin", tool), RECORDER(log, tool));
    });
    const before = notOwn(s, [".venv/"]);
    const { callbacks, plan } = init(s);
    expect([...callbacks.keys()]).toEqual(["ruff-format", "ruff", "mypy", "pytest"]);
    // scripts/lint runs `ruff check --fix` and `ruff format`; scripts/check `mypy httpx tests`
    expect(argv(callbacks.get("ruff"))).toBe(".venv/bin/ruff check --fix --quiet {files}");
    expect(argv(callbacks.get("mypy"))).toBe(".venv/bin/mypy -O json httpx");
    expect(callbacks.get("pytest")?.blocking).toBe(false);
    expect(plan).toContain("from scripts/check, scripts/lint");
    expect(plan).toContain("ruff-format --check: would rewrite 0 of 3 files now");
    const check = cpilot(["check", "--all"], { cwd: s.root, env: s.env });
    expect(check.code).toBe(0);
    expect(filesHanded(s).filter((f) => f.startsWith(".venv/"))).toEqual([]);
    expect(notOwn(s, [".venv/"])).toEqual(before);
    // the package, not the edited files: a rename that breaks another module is seen
    expect(ran(s).find((r) => r.tool === "mypy")?.args).toEqual(["-O", "json", "httpx"]);
  },
);

test("openstatus (pnpm workspaces with catalog:, turbo, oxfmt + oxlint, Go apps, a deno.jsonc for imports): each package runs its own tools in its folder", () => {
  const s = setUp("openstatus", ({ root, log, bin }) => {
    for (const tool of ["oxfmt", "oxlint"])
      writeTool(join(root, "node_modules/.bin", tool), RECORDER(log, tool));
    // pnpm links each package's own tools into its node_modules/.bin
    writeTool(join(root, "packages/ui/node_modules/.bin/oxlint"), RECORDER(log, "oxlint"));
    writeTool(join(root, "packages/ui/node_modules/.bin/tsc"), RECORDER(log, "tsc"));
    writeTool(join(root, "apps/web/node_modules/.bin/tsc"), RECORDER(log, "tsc"));
    writeFiles(root, { "node_modules/left-pad/index.ts": "export default 1\n" });
    for (const tool of ["go", "gofmt", "golangci-lint"])
      writeTool(join(bin, tool), RECORDER(log, tool));
  });
  const { callbacks, plan } = init(s);
  expect([...callbacks.keys()].sort()).toEqual(
    [
      "oxlint",
      "oxfmt",
      "gofmt-apps-checker",
      "golangci-lint-apps-checker",
      "go-test-apps-checker",
      "typecheck-apps-web",
      "oxlint-packages-ui",
      "typecheck-packages-ui",
    ].sort(),
  );
  expect(plan).not.toContain("deno-fmt");
  expect(callbacks.get("oxlint-packages-ui")).toMatchObject({ cwd: "packages/ui" });
  expect(callbacks.get("oxlint")?.pattern).toContain("!packages/ui/**");
  expect(callbacks.get("typecheck-apps-web")).toMatchObject({
    cwd: "apps/web",
    run: "node_modules/.bin/tsc --noEmit",
  });
  expect(callbacks.get("golangci-lint-apps-checker")).toMatchObject({ cwd: "apps/checker" });
  const check = cpilot(["check", "--all"], { cwd: s.root, env: s.env });
  expect(check.code).toBe(0);
  const runs = ran(s);
  expect(runs).toContainEqual({ cwd: "packages/ui", tool: "oxlint", args: ["src/lib/utils.ts"] });
  expect(runs).toContainEqual({ cwd: "apps/web", tool: "tsc", args: ["--noEmit"] });
  expect(runs).toContainEqual({
    cwd: "apps/checker",
    tool: "golangci-lint",
    args: ["run", "./..."],
  });
  expect(filesHanded(s).filter((f) => f.includes("node_modules/"))).toEqual([]);
});

test("uber-go/zap (five nested Go modules, one .golangci.yml): each module is vetted and tested in its own folder, so a compile error in one fails the check", () => {
  const s = setUp("zap", ({ log, bin }) => {
    writeTool(join(bin, "gofmt"), RECORDER(log, "gofmt"));
    writeTool(join(bin, "go"), RECORDER(log, "go"));
    // golangci-lint over ./... of the folder it runs in; fails on a file that does not compile
    writeTool(
      join(bin, "golangci-lint"),
      RECORDER(
        log,
        "golangci-lint",
        'if grep -rq "COMPILE ERROR" --include=*.go .; then echo "x.go:1:1: typecheck"; exit 1; fi\n',
      ),
    );
  });
  const { callbacks } = init(s);
  for (const mod of ["exp", "benchmarks", "tools", "assets", "zapgrpc-internal-test"])
    expect(callbacks.get(`golangci-lint-${mod}`)?.cwd).toBe(
      mod.replace("zapgrpc-internal-test", "zapgrpc/internal/test"),
    );
  expect(callbacks.get("golangci-lint")?.pattern).toContain("!exp/**");
  expect(cpilot(["check", "--all"], { cwd: s.root, env: s.env }).code).toBe(0);
  writeFileSync(join(s.root, "exp/zapfield/broken.go"), "package zapfield\n// COMPILE ERROR\n");
  const broken = cpilot(["check", "exp/zapfield/broken.go"], { cwd: s.root, env: s.env });
  expect(broken.code).toBe(1);
  expect(broken.stderr).toContain("golangci-lint-exp");
});

test.skipIf(!rustfmt)(
  "rust-lang/regex (a Cargo workspace, fuzz/ a crate outside it): rustfmt with the project's edition and rustfmt.toml leaves fuzz/ alone and rewrites nothing",
  () => {
    const s = setUp("regex", ({ root, log, bin }) => {
      writeTool(join(bin, "cargo"), RECORDER(log, "cargo"));
      // fuzz/ is not formatted by the project: a line rustfmt would rewrite
      const fuzz = join(root, "fuzz/fuzz_targets/ast_fuzz_match.rs");
      writeFileSync(fuzz, `${readFileSync(fuzz, "utf8")}\nfn   unformatted( ){}\n`);
    });
    const { callbacks, plan } = init(s);
    expect([...callbacks.keys()]).toEqual(["rustfmt", "clippy", "cargo-test"]);
    expect(argv(callbacks.get("rustfmt"))).toBe("rustfmt --edition 2021 {files}");
    expect(callbacks.get("rustfmt")?.pattern).toEqual(["*.rs", "!fuzz/**"]);
    expect(plan).toContain("fuzz: left out (rust), a crate outside the Cargo workspace");
    expect(plan).toContain("rustfmt --check: would rewrite 0 of 3 files now");
    const before = treeState(s.root);
    const check = cpilot(["check", "--all"], { cwd: s.root, env: s.env });
    expect(check.code).toBe(0);
    const after = treeState(s.root);
    // nothing the project's own formatter would not rewrite: the tree is as committed
    expect(Object.keys(after).filter((k) => after[k] !== before[k] && !k.startsWith("("))).toEqual(
      [],
    );
  },
);
