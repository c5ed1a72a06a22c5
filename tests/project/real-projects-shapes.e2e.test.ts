/**
 * Public projects of shapes not tried before, as a newcomer tries them: `init --yes`, the first
 * `check --all`, then a break in one module, told to `check --all` and to a Claude Code
 * PostToolUse hook call. Snapshots under tests/fixtures/projects/real-* (the upstream commit in
 * UPSTREAM.txt); tsc and deno are the real ones, the tools this machine cannot install are
 * recorders.
 */
import { expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cpilot } from "../helpers/binary.ts";
import { treeState } from "../helpers/tree-state.ts";
import {
  argv,
  changedOwn,
  filesHanded,
  init,
  RECORDER,
  ran,
  rustfmt,
  type Setup,
  setUp,
  writeTool,
} from "./real-project-kit.ts";

const BIN = join(import.meta.dir, "..", "..", "node_modules", ".bin");

function commit(s: Setup, message: string): void {
  spawnSync("git", ["add", "-A"], { cwd: s.root });
  spawnSync("git", ["commit", "-qm", message], { cwd: s.root });
}

/** What Claude Code sends after its Edit tool replaced `from` with `to` in `file`; what it is told. */
function edit(s: Setup, file: string, from: string, to: string): string {
  const path = join(s.root, file);
  const text = readFileSync(path, "utf8");
  expect(text).toContain(from);
  writeFileSync(path, text.replace(from, to));
  const r = cpilot(["hook", "claude"], {
    cwd: s.root,
    env: s.env,
    input: JSON.stringify({
      session_id: "s1",
      cwd: s.root,
      hook_event_name: "PostToolUse",
      tool_name: "Edit",
      tool_input: { file_path: path, old_string: from, new_string: to, replace_all: false },
      tool_response: { filePath: path },
      tool_use_id: `toolu_${file}`,
    }),
  });
  const reason = r.stdout.trim() === "" ? "" : (JSON.parse(r.stdout) as { reason?: string }).reason;
  return `${reason ?? r.stdout}\n${r.stderr}`;
}

test("arcanis/clipanion (Yarn 4 with Plug'n'Play: no node_modules, its tools run as `yarn <tool>`): init runs them through yarn, a rename that breaks another module is told", () => {
  const s = setUp("clipanion", ({ bin, log }) => {
    // yarn itself needs the network to install: a recorder that runs the real tsc for `yarn tsc`
    writeTool(
      join(bin, "yarn"),
      RECORDER(log, "yarn", `if [ "$1" = tsc ]; then shift; exec '${join(BIN, "tsc")}' "$@"; fi\n`),
    );
  });
  const { callbacks, plan } = init(s);
  expect([...callbacks.keys()]).toEqual(["eslint", "typecheck", "jest"]);
  // as its "lint" script runs it, with its --max-warnings 0
  expect(argv(callbacks.get("eslint"))).toBe("yarn eslint --max-warnings 0 {files}");
  expect(argv(callbacks.get("typecheck"))).toBe("yarn tsc --noEmit -p .");
  expect(callbacks.get("jest")).toMatchObject({
    run: ["yarn", "jest", "--findRelatedTests", "--passWithNoTests", "{files}"],
    blocking: false,
  });
  expect(plan).not.toContain("node_modules/.bin");
  expect(plan).toContain(
    "typecheck: Yarn's Plug'n'Play is not installed (no .pnp.cjs beside .yarnrc.yml): run `yarn install`",
  );
  // the editor SDKs Yarn writes are no package of the project
  expect(plan).toContain(".yarn/sdks/eslint, .yarn/sdks/typescript");
  commit(s, "cpilot init");

  const before = treeState(s.root);
  // the types of node and typanion are not installed: tsc's findings now are already there
  cpilot(["check", "--all"], { cwd: s.root, env: s.env });
  expect(changedOwn(s, before)).toEqual([]);
  const eslint = ran(s).find((r) => r.tool === "yarn" && r.args[0] === "eslint");
  expect(eslint?.args).toEqual(
    expect.arrayContaining(["--max-warnings", "0", "sources/errors.ts"]),
  );
  expect(filesHanded(s).filter((f) => f.startsWith(".yarn/"))).toEqual([]);

  const told = edit(s, "sources/constants.ts", "export enum SpecialToken", "export enum Token");
  expect(told).toMatch(
    /sources\/errors\.ts:1:9 error TS2305: Module '"\.\/constants"' has no exported member 'SpecialToken'/,
  );
  const all = cpilot(["check", "--all"], { cwd: s.root, env: s.env });
  expect(all.code).toBe(1);
  expect(all.stderr).toContain("sources/errors.ts:1:9");

  // once `yarn install` has written .pnp.cjs (which the project ignores), doctor finds the tools
  writeFileSync(join(s.root, ".pnp.cjs"), "");
  const doctor = cpilot(["doctor"], { cwd: s.root, env: s.env });
  expect(doctor.stdout + doctor.stderr).toMatch(/✓ typecheck\s+yarn/);
  expect(doctor.stdout + doctor.stderr).not.toContain("not installed");
});

test("denoland/std (a Deno workspace: members with their own deno.json, importing each other by name): fmt proven, each member type-checked in its folder, also on edits to the members it imports", () => {
  const s = setUp("deno-std", ({ bin }) => symlinkSync(join(BIN, "deno"), join(bin, "deno")));
  const { callbacks, plan } = init(s);
  expect([...callbacks.keys()]).toEqual([
    "deno-fmt",
    "deno-lint",
    "deno-check-assert",
    "deno-test-assert",
    "deno-check-internal",
  ]);
  // internal's tests are not in the snapshot: `deno test` would fail on no test module
  expect(plan).not.toContain("deno-test-internal");
  expect(plan).toContain("deno-fmt --check: would rewrite 0 of 11 files now");
  // fmt and lint from the root, as the project runs them: Deno applies each member's settings
  expect(argv(callbacks.get("deno-fmt"))).toBe("deno fmt --quiet {files}");
  expect(callbacks.get("deno-check-assert")).toMatchObject({
    cwd: "assert",
    run: ["deno", "check", "--quiet", "."],
  });
  // is_error.ts imports @std/internal/styles: a rename there can break assert
  expect(callbacks.get("deno-check-assert")?.pattern).toContain("internal/**/*.ts");
  expect(callbacks.get("deno-check-internal")?.pattern).not.toContain("assert/**/*.ts");
  // the permissions of the project's own `deno test` task, nothing of its coverage
  expect(callbacks.get("deno-test-assert")).toMatchObject({
    run: ["deno", "test", "--quiet", "-A", "."],
    blocking: false,
  });
  commit(s, "cpilot init");

  const before = treeState(s.root);
  const first = cpilot(["check", "--all"], { cwd: s.root, env: s.env, timeoutMs: 240_000 });
  expect({ code: first.code, changed: changedOwn(s, before) }).toEqual({ code: 0, changed: [] });

  // a rename in internal that breaks assert's is_error.ts, told after the edit of internal
  const told = edit(
    s,
    "internal/styles.ts",
    "export function stripAnsiCode(",
    "export function stripAnsi(",
  );
  expect(told).toContain("assert/is_error.ts");
  // in plain text, not Deno's colours
  expect(told).not.toContain("\u001b[");
  expect(told).toContain("stripAnsiCode");
  const all = cpilot(["check", "--all"], { cwd: s.root, env: s.env, timeoutMs: 240_000 });
  expect(all.code).toBe(1);
  expect(all.stderr).toContain("deno-check-assert");
}, 300_000);

test("pydantic/jiter (a Cargo workspace whose member is also a maturin Python package of a uv workspace; an excluded fuzz crate): clippy with the features its hook turns on, the type stub linted and formatted, nothing handed outside the project's own crates", () => {
  // its crates come from crates.io and ruff and pytest from PyPI: recorders; rustfmt is real
  const s = setUp("jiter", ({ bin, log }) => {
    for (const tool of ["cargo", "ruff", "pytest"]) writeTool(join(bin, tool), RECORDER(log, tool));
  });
  const { callbacks, plan } = init(s);
  expect([...callbacks.keys()]).toEqual([
    "rustfmt",
    "clippy",
    "cargo-test",
    "ruff-format",
    "ruff",
    "pytest",
  ]);
  // as its pre-commit hook runs it: code behind the feature is compiled and linted
  expect(argv(callbacks.get("clippy"))).toBe(
    "cargo clippy --workspace --all-targets --features python --quiet --message-format short -- -D warnings",
  );
  expect(plan).toContain(".pre-commit-config.yaml runs it with --features python");
  // the Makefile lints and format-checks jiter.pyi: so does cpilot
  expect(callbacks.get("ruff")?.pattern).toEqual(["*.py", "*.pyi", "!crates/fuzz/**"]);
  expect(callbacks.get("ruff-format")?.pattern).toEqual(["*.py", "*.pyi", "!crates/fuzz/**"]);
  expect(callbacks.get("rustfmt")?.pattern).toEqual(["*.rs", "!crates/fuzz/**"]);
  expect(plan).toContain("crates/fuzz: left out (rust), a crate outside the Cargo workspace");
  commit(s, "cpilot init");

  const before = treeState(s.root);
  cpilot(["check", "--all"], { cwd: s.root, env: s.env });
  expect(changedOwn(s, before)).toEqual([]);
  const handed = filesHanded(s);
  expect(handed).toContain("crates/jiter-python/jiter.pyi");
  expect(handed.filter((f) => f.startsWith("crates/fuzz/"))).toEqual([]);
  expect(
    ran(s)
      .filter((r) => r.tool === "cargo")
      .map((r) => r.cwd),
  ).toEqual([".", "."]);

  // the type stub edited: ruff is run on it
  const earlier = ran(s).length;
  const told = edit(s, "crates/jiter-python/jiter.pyi", "def from_json(", "def from_json_(");
  expect(told).not.toContain("failed");
  expect(
    ran(s)
      .slice(earlier)
      .map((r) => `${r.tool} ${r.args.join(" ")}`)
      .sort(),
  ).toEqual([
    "ruff check --quiet crates/jiter-python/jiter.pyi",
    "ruff format --quiet crates/jiter-python/jiter.pyi",
  ]);

  // a syntax error in the jiter crate: the real rustfmt fails on it, and the agent is told
  if (rustfmt === "") return;
  const broken = edit(
    s,
    "crates/jiter/src/py_lossless_float.rs",
    "pub struct LosslessFloat(Vec<u8>);",
    "pub struct LosslessFloat(Vec<u8>;",
  );
  expect(broken).toContain("'rustfmt' failed on crates/jiter/src/py_lossless_float.rs");
});
