import { expect, test } from "bun:test";
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { cpilot, cpilotBinary, runtimeEnv } from "../helpers/binary.ts";
import { tempDir } from "../helpers/tmp.ts";

const FIXTURES = join(import.meta.dir, "..", "fixtures", "projects");
const CARGO_BIN = dirname(
  execFileSync("bash", ["-lc", "command -v cargo"], { encoding: "utf8" }).trim(),
);
const REPO_BIN = join(import.meta.dir, "..", "..", "node_modules", ".bin");

interface Listed {
  name: string;
  pattern: string[];
  run: string | string[];
}

/** A fixture copied into a fresh git repo, committed, with `cpilot init --yes` run in it. */
function initFixture(name: string): {
  root: string;
  callbacks: Map<string, Listed>;
  stderr: string;
} {
  const root = tempDir(`cpilot-init-${name}-`, { git: true });
  cpSync(join(FIXTURES, name), root, { recursive: true });
  execFileSync("git", ["add", "-A"], { cwd: root });
  execFileSync("git", ["commit", "-qm", "fixture"], { cwd: root });
  const r = cpilot(["init", "--yes"], { cwd: root });
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: expect.any(String) });
  const config = existsSync(join(root, "callbacks.config.ts"))
    ? readFileSync(join(root, "callbacks.config.ts"), "utf8")
    : readFileSync(join(root, "callbacks.config.json"), "utf8");
  expect(config.length).toBeGreaterThan(0);
  return { root, callbacks: readCallbacks(root), stderr: r.stderr };
}

/** The callbacks as the config file holds them (list --json gives names; the file, the rest). */
function readCallbacks(root: string): Map<string, Listed> {
  const listed = JSON.parse(cpilot(["list", "--json"], { cwd: root }).stdout) as {
    callbacks: { name: string }[];
  };
  const path = join(root, "callbacks.config.json");
  const out = new Map<string, Listed>();
  if (existsSync(path)) {
    const json = JSON.parse(readFileSync(path, "utf8")) as { callbacks: Listed[] };
    for (const c of json.callbacks)
      out.set(c.name, { ...c, pattern: [c.pattern].flat() as string[] });
  } else {
    for (const c of listed.callbacks) out.set(c.name, { name: c.name, pattern: [], run: "" });
  }
  expect([...out.keys()]).toEqual(listed.callbacks.map((c) => c.name));
  return out;
}

const argv = (c: Listed | undefined): string => [c?.run ?? ""].flat().join(" ");

test("ky (xo + tsc): xo run from node_modules/.bin as its test script runs it, without --fix; JSON config since xo lints root .ts files", () => {
  const { root, callbacks } = initFixture("ky");
  expect([...callbacks.keys()]).toEqual(["xo", "typecheck", "ava"]);
  // ava after the build its test script runs first, in the background
  expect(argv(callbacks.get("ava"))).toBe("npm run build && node_modules/.bin/ava");
  // `"test": "xo && npm run build && ava"`: xo checks; a newer xo's --fix rewrote a test
  // file into a new error the project's own run would only have reported
  expect(argv(callbacks.get("xo"))).toBe("node_modules/.bin/xo {files}");
  expect(argv(callbacks.get("typecheck"))).toBe("node_modules/.bin/tsc --noEmit -p .");
  expect(existsSync(join(root, "callbacks.config.ts"))).toBe(false);
  expect(existsSync(join(root, "cpilot-env.d.ts"))).toBe(false);
  // In ky's style: tabs, as its .editorconfig and xo want.
  expect(readFileSync(join(root, "callbacks.config.json"), "utf8")).toContain('\n\t"callbacks"');
  expect(
    JSON.parse(readFileSync(join(root, "callbacks.config.json"), "utf8")).callbacks[0].fixes,
  ).toBeUndefined();
}, 60_000);

test("xo with a script that runs `xo --fix`: the project fixes with it, so the callback does", () => {
  const root = tempDir("cpilot-init-xo-fix-", { git: true });
  writeFileSync(
    join(root, "package.json"),
    JSON.stringify({ scripts: { lint: "xo", fix: "xo --fix" }, devDependencies: { xo: "^1.0.0" } }),
  );
  writeFileSync(join(root, "index.js"), "export const a = 1;\n");
  execFileSync("git", ["add", "-A"], { cwd: root });
  execFileSync("git", ["commit", "-qm", "x"], { cwd: root });
  expect(cpilot(["init", "--yes"], { cwd: root }).code).toBe(0);
  const xo = readCallbacks(root).get("xo");
  expect(argv(xo)).toBe("node_modules/.bin/xo --fix {files}");
}, 60_000);

test("tinyexec (eslint src + prettier src + tsc): scoped to src, in its prettier style, out of its checks' scope", () => {
  const { root } = initFixture("tinyexec");
  const text = readFileSync(join(root, "callbacks.config.ts"), "utf8");
  // Its .prettierrc.json: single quotes, no bracket spacing, no trailing commas.
  expect(text).toStartWith("import {defineConfig} from 'cpilot';\n");
  expect(text).toContain("name: 'eslint'");
  expect(text).toContain("run: ['node_modules/.bin/eslint', '--no-warn-ignored', '{files}']");
  expect(text).toContain("pattern: ['src/**', '!dist', '!coverage']");
  expect(text).toContain("run: 'node_modules/.bin/tsc --noEmit'");
  expect(text).not.toContain("npx");
  expect(text).not.toMatch(/,\n\s*[}\]]/);
  const names = JSON.parse(cpilot(["list", "--json"], { cwd: root }).stdout).callbacks.map(
    (c: { name: string }) => c.name,
  );
  expect(names).toEqual(["eslint", "prettier", "typecheck", "node-test"]);
  // `"test": "npm run build && c8 node --test"`: the tests read the build; no coverage
  expect(text).toContain("run: 'npm run build && node --test'");
  // prettier is scoped to src: the README it never formats is not matched.
  const dry = cpilot(["check", "--dry-run", "README.md", "src/main.ts"], { cwd: root });
  expect(dry.stdout + dry.stderr).not.toMatch(/prettier[^\n]*README/);
}, 60_000);

test("tinyexec: the generated typecheck runs with check --all (tsc from the project's node_modules)", () => {
  const { root } = initFixture("tinyexec");
  mkdirSync(join(root, "node_modules", ".bin"), { recursive: true });
  symlinkSync(join(REPO_BIN, "tsc"), join(root, "node_modules", ".bin", "tsc"));
  const ok = cpilot(["check", "--all", "--only", "typecheck"], { cwd: root });
  expect({ code: ok.code, out: ok.stderr }).toEqual({
    code: 0,
    out: expect.stringContaining("types OK"),
  });
  writeFileSync(join(root, "src", "main.ts"), "export const n: number = 'x';\n");
  const bad = cpilot(["check", "--all", "--only", "typecheck"], { cwd: root });
  expect(bad.code).toBe(1);
  expect(bad.stderr).toContain("src/main.ts");
}, 120_000);

test("citty (oxlint + oxfmt + tsgo): what its scripts run, oxfmt fixing", () => {
  const { callbacks } = initFixture("citty");
  expect([...callbacks.keys()]).toEqual(["oxlint", "oxfmt", "typecheck", "vitest"]);
  expect(argv(callbacks.get("oxlint"))).toBe("node_modules/.bin/oxlint {files}");
  expect(argv(callbacks.get("oxfmt"))).toBe("node_modules/.bin/oxfmt {files}");
  expect(argv(callbacks.get("typecheck"))).toBe("node_modules/.bin/tsgo --noEmit");
}, 60_000);

test("biome project that runs `biome check`: biome formats, the check reports, config in its style, and check --all leaves the config as written", () => {
  const { root, callbacks } = initFixture("biome-app");
  expect([...callbacks.keys()]).toEqual(["biome-format", "biome", "typecheck"]);
  const path = join(root, "callbacks.config.json");
  const before = readFileSync(path, "utf8");
  mkdirSync(join(root, "node_modules", ".bin"), { recursive: true });
  for (const bin of ["biome", "tsc"])
    symlinkSync(join(REPO_BIN, bin), join(root, "node_modules", ".bin", bin));
  const r = cpilot(["check", "--all"], { cwd: root });
  expect({ code: r.code, out: r.stderr }).toEqual({ code: 0, out: expect.any(String) });
  expect(readFileSync(path, "utf8")).toBe(before);
  const lint = spawnSync(join(REPO_BIN, "biome"), ["check", "."], { cwd: root, encoding: "utf8" });
  expect(lint.stdout + lint.stderr).toContain("Checked");
  expect(lint.status).toBe(0);
}, 120_000);

test("Rust crate, edition 2024: rustfmt with that edition, clippy -D warnings, child-module rewrites reported", () => {
  const { root, callbacks } = initFixture("rust-2024");
  expect(argv(callbacks.get("rustfmt"))).toBe("rustfmt --edition 2024 {files}");
  expect(argv(callbacks.get("clippy"))).toContain("--message-format short -- -D warnings");
  const env = { PATH: `${CARGO_BIN}:/usr/local/bin:/usr/bin:/bin` };
  const clean = cpilot(["check", "--all"], { cwd: root, env });
  expect({ code: clean.code, out: clean.stderr }).toEqual({ code: 0, out: expect.any(String) });
  // rustfmt formats digits.rs (a child module) when handed lib.rs: reported, not silent.
  writeFileSync(
    join(root, "src", "digits.rs"),
    "pub fn render(n: u32) -> String {  n.to_string() }\n",
  );
  execFileSync("git", ["commit", "-qam", "unformatted child"], { cwd: root });
  writeFileSync(
    join(root, "src", "lib.rs"),
    `${readFileSync(join(root, "src", "lib.rs"), "utf8")}\n`,
  );
  const r = cpilot(["check", "--json", "--only", "rustfmt", "src/lib.rs"], { cwd: root, env });
  const report = JSON.parse(r.stdout) as { resyncs: { path: string }[] };
  expect(report.resyncs.map((x) => x.path)).toContain("src/digits.rs");
  // A clippy warning fails the check.
  writeFileSync(
    join(root, "src", "lib.rs"),
    "mod digits;\n\npub fn format(n: u32) -> String {\n    let unused = 1;\n    digits::render(n)\n}\n",
  );
  const warned = cpilot(["check", "--only", "clippy", "src/lib.rs"], { cwd: root, env });
  expect(warned.code).toBe(1);
  expect(warned.stderr).toContain("unused");
}, 120_000);

test("Python package with black + flake8 + mypy: those, not ruff; JSON config", () => {
  const { root, callbacks } = initFixture("python-black");
  expect(existsSync(join(root, "callbacks.config.json"))).toBe(true);
  // --force replaces a config of another format instead of leaving it to win.
  writeFileSync(join(root, "callbacks.config.yaml"), "callbacks: []\n");
  expect(cpilot(["init", "--yes", "--force"], { cwd: root }).code).toBe(0);
  expect(existsSync(join(root, "callbacks.config.yaml"))).toBe(false);
  // YAML on request, and it loads to the same callbacks.
  expect(cpilot(["init", "--yes", "--force", "--format", "yaml"], { cwd: root }).code).toBe(0);
  expect(existsSync(join(root, "callbacks.config.json"))).toBe(false);
  const listed = JSON.parse(cpilot(["list", "--json"], { cwd: root }).stdout) as {
    callbacks: { name: string }[];
  };
  expect(listed.callbacks.map((c) => c.name)).toEqual(["black", "flake8", "mypy", "pytest"]);
  expect([...callbacks.keys()]).toEqual(["black", "flake8", "mypy", "pytest"]);
  expect(callbacks.has("ruff")).toBe(false);
  // Columns in mypy's diagnostics (output-formats.e2e.test.ts runs them).
  // over the package, as the project runs it, not the edited files alone
  expect(argv(callbacks.get("mypy"))).toBe("mypy --show-column-numbers src");
}, 60_000);

test("without a terminal and without --yes, init shows the plan, writes nothing and says to pass --yes", () => {
  const root = tempDir("cpilot-init-plan-", { git: true });
  cpSync(join(FIXTURES, "citty"), root, { recursive: true });
  const r = cpilot(["init"], { cwd: root });
  expect(r.code).toBe(2);
  expect(r.stderr).toContain("oxlint");
  expect(r.stderr).toContain("--yes");
  expect(existsSync(join(root, "callbacks.config.json"))).toBe(false);
}, 60_000);

test("on a terminal, init asks before it writes: no writes nothing, yes writes the plan", () => {
  const onTty = (root: string, answer: string) =>
    spawnSync("script", ["-qec", `${cpilotBinary()} init`, "/dev/null"], {
      cwd: root,
      input: answer,
      encoding: "utf8",
      env: { PATH: "/usr/bin:/bin", TERM: "xterm", NO_COLOR: "1", HOME: root, ...runtimeEnv() },
      timeout: 30_000,
    });
  const root = tempDir("cpilot-init-tty-", { git: true });
  cpSync(join(FIXTURES, "python-black"), root, { recursive: true });
  const no = onTty(root, "n\n");
  expect(no.stdout).toContain("Write callbacks.config.json?");
  expect(existsSync(join(root, "callbacks.config.json"))).toBe(false);
  onTty(root, "y\n");
  expect(
    JSON.parse(readFileSync(join(root, "callbacks.config.json"), "utf8")).callbacks[0].name,
  ).toBe("black");
}, 120_000);

test("a proposed tool that is not installed is named in the plan, before the first check fails on it", () => {
  // spf13/pflag: a .golangci.yaml, and golangci-lint on no PATH of this machine
  const root = tempDir("cpilot-init-go-", { git: true });
  writeFileSync(join(root, "go.mod"), "module example.com/m\n\ngo 1.19\n");
  writeFileSync(join(root, ".golangci.yaml"), 'version: "2"\n');
  writeFileSync(join(root, "m.go"), "package m\n");
  const bin = tempDir("cpilot-init-bin-");
  // a stand-in: what matters is that gofmt is on PATH, and Go need not be installed here
  writeFileSync(join(bin, "gofmt"), "#!/bin/sh\nexit 0\n", { mode: 0o755 });
  const r = cpilot(["init", "--dry-run"], { cwd: root, env: { PATH: `${bin}:/bin` } });
  expect(r.code).toBe(0);
  expect(r.stderr).toContain(
    '  note: golangci-lint: "golangci-lint" is not on PATH here; the callback fails until it is installed (`cpilot doctor` checks)',
  );
  expect(r.stderr).not.toContain("note: gofmt");
});

test("Rust crate whose benches need nightly (#![feature(test)]): clippy leaves them out, so the first check --all is not red on stable", () => {
  // dtolnay/dissimilar 1.0.6: `cargo clippy --all-targets` fails with E0554 on stable
  const root = tempDir("cpilot-init-nightly-bench-", { git: true });
  writeFileSync(
    join(root, "Cargo.toml"),
    '[package]\nname = "nb"\nversion = "0.1.0"\nedition = "2018"\n\n[dependencies]\n',
  );
  mkdirSync(join(root, "src"));
  mkdirSync(join(root, "benches"));
  writeFileSync(join(root, "src", "lib.rs"), "pub fn one() -> u32 {\n    1\n}\n");
  writeFileSync(
    join(root, "benches", "bench.rs"),
    "#![feature(test)]\n\nextern crate test;\n\n#[bench]\nfn b(b: &mut test::Bencher) {\n    b.iter(nb::one);\n}\n",
  );
  execFileSync("git", ["add", "-A"], { cwd: root });
  execFileSync("git", ["commit", "-qm", "crate"], { cwd: root });
  const env = { PATH: `${CARGO_BIN}:/usr/local/bin:/usr/bin:/bin` };
  const r = cpilot(["init", "--yes"], { cwd: root, env });
  expect(r.code).toBe(0);
  expect(r.stderr).toContain(
    "note: benches/bench.rs needs nightly (#![feature]): clippy checks the library, binaries, tests and examples, not the benches",
  );
  expect(r.stderr).toContain(
    "next: `cpilot check --all` runs them once and records what is already there",
  );
  const clippy = readCallbacks(root).get("clippy");
  expect(argv(clippy)).toBe(
    "cargo clippy --tests --examples --quiet --message-format short -- -D warnings",
  );
  const all = cpilot(["check", "--all"], { cwd: root, env });
  expect({ code: all.code, out: all.stderr }).toEqual({ code: 0, out: expect.any(String) });
}, 120_000);
