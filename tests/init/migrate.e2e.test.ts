import { expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cpilot } from "../helpers/binary.ts";
import { tempDir } from "../helpers/tmp.ts";

const FIXTURES = join(import.meta.dir, "..", "fixtures", "projects");

interface Cb {
  name: string;
  pattern: string[];
  run: string;
  fixes?: boolean;
  cwd?: string;
}

function migrate(fixture: string, from: string): { root: string; callbacks: Cb[]; stderr: string } {
  const root = tempDir(`cpilot-migrate-${from}-`, { git: true });
  cpSync(join(FIXTURES, fixture), root, { recursive: true });
  execFileSync("git", ["add", "-A"], { cwd: root }); // check --all lists what git tracks
  const r = cpilot(["init", "--from", from, "--yes"], { cwd: root });
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: expect.any(String) });
  const json = JSON.parse(readFileSync(join(root, "callbacks.config.json"), "utf8")) as {
    callbacks: Cb[];
  };
  return { root, callbacks: json.callbacks, stderr: r.stderr };
}

test("lefthook: globs (braces expanded), {staged_files}, excludes, stage_fixed; says what it left", () => {
  const { callbacks, stderr } = migrate("migrate-lefthook", "lefthook");
  expect(callbacks.map((c) => [c.name, c.pattern, c.run, c.fixes ?? false])).toEqual([
    ["lint", ["*.js", "*.ts", "!src/generated/*"], 'npx eslint "$@"', false],
    ["format", ["*.js", "*.ts", "*.json"], 'npx prettier --write "$@"', true],
    ["names", ["*.ts"], './scripts/names.sh "$@"', false],
  ]);
  expect(stderr).toContain("exclude is a regex (\\.d\\.ts$); not carried over");
  expect(stderr).toContain("tags not carried over");
  expect(stderr).toContain("pre-push: not carried over");
}, 60_000);

test("husky + lint-staged: the lint-staged globs become callbacks whose commands each get the files", () => {
  const { callbacks, stderr } = migrate("migrate-lint-staged", "husky");
  expect(callbacks.map((c) => [c.name, c.pattern, c.run])).toEqual([
    ["eslint-fix", ["*.js", "*.ts"], 'eslint --fix "$@" && prettier --write "$@"'],
    ["prettier-write", ["*.md"], 'prettier --write "$@"'],
    ["npm-test", ["*"], "npm test"],
  ]);
  expect(stderr).toContain('"npm test" ran once per commit');
  // The same lint-staged config read directly.
  const direct = migrate("migrate-lint-staged", "lint-staged");
  expect(direct.callbacks.map((c) => c.name)).toEqual(["eslint-fix", "prettier-write"]);
}, 60_000);

test("pre-commit: known hooks run their tool, local hooks their entry; the config runs with check --all", () => {
  const { root, callbacks, stderr } = migrate("migrate-pre-commit", "pre-commit");
  expect(callbacks.map((c) => [c.name, c.pattern, c.run])).toEqual([
    ["black", ["*.py", "*.pyi"], 'black --quiet "$@"'],
    ["flake8", ["src/**/*.py"], 'flake8 --max-line-length=88 "$@"'],
    ["no-print", ["*.py", "*.pyi"], './scripts/no-print.sh "$@"'],
  ]);
  expect(stderr).toContain("trailing-whitespace");
  expect(stderr).toContain('exclude regex "^src/legacy/(?!keep)" not carried over');
  // The local hook really gets the files: it passes, then fails on a print().
  const ok = cpilot(["check", "--all", "--only", "no-print"], { cwd: root });
  expect({ code: ok.code, err: ok.stderr }).toEqual({ code: 0, err: expect.any(String) });
  writeFileSync(join(root, "src", "mod.py"), 'print("hi")\n');
  const bad = cpilot(["check", "--all", "--only", "no-print"], { cwd: root });
  expect(bad.code).toBe(1);
  expect(bad.stderr).toContain('print("hi")');
}, 60_000);

test("--from a tool whose config is not here, or an unknown tool, is a usage error", () => {
  const root = tempDir("cpilot-migrate-none-", { git: true });
  const none = cpilot(["init", "--from", "lefthook", "--yes"], { cwd: root });
  expect(none.code).toBe(2);
  expect(none.stderr).toContain("no lefthook config here");
  const typo = cpilot(["init", "--from", "lefthok"], { cwd: root });
  expect(typo.code).toBe(2);
  expect(typo.stderr).toContain('did you mean "lefthook"?');
}, 60_000);
