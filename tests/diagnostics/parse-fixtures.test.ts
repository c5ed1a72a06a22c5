import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseDiagnostics } from "../../src/diagnostics/parse-output.ts";

// Each fixture is a real tool's output, captured in a sample project (named by the tool and
// its version; fixtures/README.md says where the tools came from). ruff 0.16.9 was captured
// with `ruff check --isolated --no-cache --output-format full|concise|json py/a.py`.
const FIXTURES = join(import.meta.dir, "fixtures");

/** The folder each sample project was captured in (absolute paths in outputs name it). */
function rootOf(name: string): string {
  if (name.startsWith("cargo") || name.startsWith("rustfmt")) return "/tmp/diag-rs";
  if (name.startsWith("jest")) return "/tmp/diag-jest";
  if (name.startsWith("go")) return "/tmp/diag-sample/go";
  if (name.startsWith("python") || name.startsWith("node")) return "/tmp/diag-crash";
  return "/tmp/diag-sample";
}

const EXPECTED: Record<string, string[]> = {
  "ruff-0.16.9-concise.txt": [
    "ruff py/a.py:1:1 error [I001] Import block is un-sorted or un-formatted",
    "ruff py/a.py:1:8 error [F401] `os` imported but unused",
    "ruff py/a.py:3:5 error [F841] Local variable `y` is assigned to but never used",
    "ruff py/a.py:4:12 error [F821] Undefined name `undefined_name`",
  ],
  "ruff-0.16.9-full.txt": [
    "ruff py/a.py:1:1 error [I001] Import block is un-sorted or un-formatted",
    "ruff py/a.py:1:8 error [F401] `os` imported but unused",
    "ruff py/a.py:3:5 error [F841] Local variable `y` is assigned to but never used",
    "ruff py/a.py:4:12 error [F821] Undefined name `undefined_name`",
  ],
  "ruff-0.16.9-json.txt": [
    "ruff py/a.py:1:1 error [I001] Import block is un-sorted or un-formatted",
    "ruff py/a.py:1:8 error [F401] `os` imported but unused",
    "ruff py/a.py:3:5 error [F841] Local variable `y` is assigned to but never used",
    "ruff py/a.py:4:12 error [F821] Undefined name `undefined_name`",
  ],
  "biome-2.5.15-check.txt": [
    "biome src/b.js:1:5 warning [lint/correctness/noUnusedVariables] This variable unused is unused.",
    "biome src/b.js:0:0 error [format] not formatted as Biome would",
    "biome src/d.js:2:1 error [lint/suspicious/noDebugger] This is an unexpected use of the debugger statement.",
    "biome src/d.js:0:0 error [format] not formatted as Biome would",
  ],
  "biome-2.5.15-github.txt": [
    "github src/b.js:1:5 warning [lint/correctness/noUnusedVariables] This variable unused is unused.",
    "github src/b.js:1:2 error [format] Formatter would have printed the following content:",
    "github src/d.js:2:1 error [lint/suspicious/noDebugger] This is an unexpected use of the debugger statement.",
    "github src/d.js:1:2 error [format] Formatter would have printed the following content:",
  ],
  "biome-2.5.15-json.txt": [
    "biome src/b.js:1:5 warning [lint/correctness/noUnusedVariables] This variable unused is unused.",
    "biome src/b.js:0:0 error [format] not formatted as Biome would",
    "biome src/d.js:2:1 error [lint/suspicious/noDebugger] This is an unexpected use of the debugger statement.",
    "biome src/d.js:0:0 error [format] not formatted as Biome would",
  ],
  "black-23.1.0-check.txt": ["black py/a.py:0:0 error [format] would be reformatted by black"],
  "bun-test-1.4.5.txt": [
    "bun-test src/e.test.ts:5:19 error [math > adds] failed: math > adds: expect(received).toBe(expected)",
    "bun-test src/e.test.ts:12:25 error [throws] failed: throws: boom",
  ],
  "cargo-1.95.0-check-json.txt": [
    "rustc src/lib.rs:3:16 error [E0425] cannot find value `y` in this scope",
  ],
  "cargo-1.95.0-check-short.txt": [
    "rustc src/lib.rs:3:16 error [E0425] cannot find value `y` in this scope",
  ],
  "cargo-1.95.0-check.txt": [
    "rustc src/lib.rs:3:16 error [E0425] cannot find value `y` in this scope",
  ],
  "cargo-clippy-1.95.0-human.txt": [
    "rustc src/lib.rs:3:16 error [E0425] cannot find value `y` in this scope",
  ],
  "cargo-clippy-1.95.0-lints-short.txt": [
    "rustc src/lib.rs:2:9 warning [unused_variables] unused variable: `unused`",
    "clippy src/lib.rs:3:5 warning [clippy::needless_return] unneeded `return` statement",
    "clippy src/lib.rs:7:5 warning [clippy::needless_return] unneeded `return` statement",
  ],
  "cargo-clippy-1.95.0-lints.txt": [
    "rustc src/lib.rs:2:9 warning [unused_variables] unused variable: `unused`",
    "clippy src/lib.rs:3:5 warning [clippy::needless_return] unneeded `return` statement",
    "clippy src/lib.rs:7:5 warning [clippy::needless_return] unneeded `return` statement",
  ],
  "cargo-test-1.95.0.txt": [
    "cargo-test src/lib.rs:14:9 error [tests::it_fails] failed: tests::it_fails: assertion `left == right` failed; left: 2; right: 3",
    "cargo-test src/lib.rs:18:9 error [tests::it_panics] failed: tests::it_panics: boom here",
  ],
  "eslint-10.15.0-compact.txt": [
    "eslint src/b.js:1:1 error [no-var] Unexpected var, use let or const instead.",
    "eslint src/b.js:1:5 error [no-unused-vars] 'unused' is assigned a value but never used.",
    "eslint src/b.js:3:9 warning [eqeqeq] Expected '===' and instead saw '=='.",
    "eslint src/b.js:3:25 error [no-undef] 'undefinedThing' is not defined.",
  ],
  "eslint-10.15.0-json.txt": [
    "eslint src/b.js:1:1 error [no-var] Unexpected var, use let or const instead.",
    "eslint src/b.js:1:5 error [no-unused-vars] 'unused' is assigned a value but never used.",
    "eslint src/b.js:3:9 warning [eqeqeq] Expected '===' and instead saw '=='.",
    "eslint src/b.js:3:25 error [no-undef] 'undefinedThing' is not defined.",
  ],
  "eslint-10.15.0-stylish-color.txt": [
    "eslint src/b.js:1:1 error [no-var] Unexpected var, use let or const instead",
    "eslint src/b.js:1:5 error [no-unused-vars] 'unused' is assigned a value but never used",
    "eslint src/b.js:3:9 warning [eqeqeq] Expected '===' and instead saw '=='",
    "eslint src/b.js:3:25 error [no-undef] 'undefinedThing' is not defined",
  ],
  "eslint-10.15.0-stylish.txt": [
    "eslint src/b.js:1:1 error [no-var] Unexpected var, use let or const instead",
    "eslint src/b.js:1:5 error [no-unused-vars] 'unused' is assigned a value but never used",
    "eslint src/b.js:3:9 warning [eqeqeq] Expected '===' and instead saw '=='",
    "eslint src/b.js:3:25 error [no-undef] 'undefinedThing' is not defined",
  ],
  "eslint-10.15.0-unix.txt": [
    "eslint src/b.js:1:1 error [no-var] Unexpected var, use let or const instead.",
    "eslint src/b.js:1:5 error [no-unused-vars] 'unused' is assigned a value but never used.",
    "eslint src/b.js:3:9 warning [eqeqeq] Expected '===' and instead saw '=='.",
    "eslint src/b.js:3:25 error [no-undef] 'undefinedThing' is not defined.",
  ],
  "flake8-5.0.4.txt": [
    "flake8 py/a.py:1:1 error [F401] 'os' imported but unused",
    "flake8 py/a.py:2:1 error [E302] expected 2 blank lines, found 0",
    "flake8 py/a.py:3:5 error [F841] local variable 'y' is assigned to but never used",
    "flake8 py/a.py:4:12 error [F821] undefined name 'undefined_name'",
    "flake8 py/a.py:5:1 error [E305] expected 2 blank lines after class or function definition, found 0",
  ],
  "clang-14.0.6.txt": ["clang src/c.c:3:10 error [] use of undeclared identifier 'y'"],
  "gcc-12.2.0.txt": [
    "gcc src/c.c:3:10 error [] ‘y’ undeclared (first use in this function)",
    "gcc src/c.c:2:7 warning [-Wunused-variable] unused variable ‘unused’",
  ],
  "go-1.19.8-build.txt": [
    "go main.go:7:2 error [] x declared but not used",
    "go main.go:8:14 error [] undefined: y",
  ],
  "go-1.19.8-vet.txt": [
    'go main.go:6:2 error [] fmt.Printf format %d has arg "s" of wrong type string',
  ],
  "go-test-1.19.8.txt": [
    "go-test add_test.go:7:0 error [TestAdd] failed: TestAdd: Add(1, 2) = -1, want 3",
  ],
  "golangci-lint-1.24.0.txt": [
    'golangci-lint style.go:3:0 error [godox] style.go:3: Line contains TODO/BUG/FIXME: "TODO: remove this helper"',
    "golangci-lint style.go:5:8 error [misspell] `recieve` is a misspelling of `receive`",
    "golangci-lint style.go:4:0 error [gofmt] File is not `gofmt`-ed with `-s`",
  ],
  "jest-30.5.2.txt": [
    "jest src/a.test.js:3:19 error [math › adds] failed: math › adds: expect(received).toBe(expected) // Object.is equality",
    "jest src/a.test.js:10:9 error [throws] failed: throws: boom",
  ],
  "mypy-1.0.1-columns.txt": [
    'mypy py/a.py:4:12 error [name-defined] Name "undefined_name" is not defined',
    'mypy py/a.py:5:10 error [assignment] Incompatible types in assignment (expression has type "str", variable has type "int")',
  ],
  "mypy-1.0.1.txt": [
    'mypy py/a.py:4:0 error [name-defined] Name "undefined_name" is not defined',
    'mypy py/a.py:5:0 error [assignment] Incompatible types in assignment (expression has type "str", variable has type "int")',
  ],
  // --pretty (or `pretty = true`): a long message wraps onto lines of its own, the code last
  "mypy-1.0.1-pretty.txt": [
    'mypy py/a.py:5:12 error [return-value] Incompatible return value type (got "str", expected "int")',
    'mypy py/a.py:9:12 error [return-value] Incompatible return value type (got "int", expected "str")',
    ...Array.from(
      { length: 12 },
      (_, i) =>
        `mypy py/a.py:12:${23 + 5 * i} error [list-item] List item ${i} has incompatible type "str"; expected "int"`,
    ),
  ],
  "mypy-2.4.0-error-end.txt": [
    'mypy py/m.py:12:14 error [assignment] Incompatible types in assignment (expression has type "str", variable has type "int")',
    'mypy py/m.py:13:1 error [call-overload] No overload variant of "foo" matches argument type "str"',
    'mypy py/m.py:14:13 info [] Revealed type is "int"',
    'mypy py/m.py:15:7 error [name-defined] Name "undefined_name" is not defined',
  ],
  "mypy-2.4.0-json.txt": [
    'mypy py/m.py:12:14 error [assignment] Incompatible types in assignment (expression has type "str", variable has type "int")',
    'mypy py/m.py:13:1 error [call-overload] No overload variant of "foo" matches argument type "str"',
    'mypy py/m.py:14:13 info [misc] Revealed type is "int"',
    'mypy py/m.py:15:7 error [name-defined] Name "undefined_name" is not defined',
  ],
  "pyright-1.1.414.txt": [
    'pyright py/types_bad.py:1:8 warning [reportUnusedImport] Import "os" is not accessed',
    'pyright py/types_bad.py:8:10 error [reportAssignmentType] Type "int" is not assignable to declared type "str"',
    'pyright py/types_bad.py:9:7 error [reportUndefinedVariable] "undefined_name" is not defined',
    'pyright py/types_bad.py:10:5 error [reportArgumentType] Argument of type "Literal[\'1\']" cannot be assigned to parameter "a" of type "int" in function "add"',
  ],
  "node-20.20.2-uncaught.txt": [
    "node a.js:2:3 error [ReferenceError] ReferenceError: y is not defined",
  ],
  "oxlint-1.94.0.txt": [
    "oxlint src/d.js:2:1 error [no-debugger] `debugger` statement is not allowed",
    "oxlint src/b.js:1:5 warning [no-unused-vars] Variable 'unused' is declared but never used. Unused variables should start with a '_'.",
  ],
  "prettier-3.10.1-check.txt": [
    "prettier src/d.js:0:0 error [format] not formatted as Prettier would",
  ],
  "pylint-2.16.2-json.txt": [
    "pylint py/a.py:1:1 info [C0114] Missing module docstring (missing-module-docstring)",
    "pylint py/a.py:2:1 info [C0116] Missing function or method docstring (missing-function-docstring)",
    'pylint py/a.py:2:1 info [C0103] Function name "f" doesn\'t conform to snake_case naming style (invalid-name)',
    'pylint py/a.py:2:7 info [C0103] Argument name "x" doesn\'t conform to snake_case naming style (invalid-name)',
    "pylint py/a.py:2:7 warning [W0621] Redefining name 'x' from outer scope (line 5) (redefined-outer-name)",
    'pylint py/a.py:3:5 info [C0103] Variable name "y" doesn\'t conform to snake_case naming style (invalid-name)',
    "pylint py/a.py:4:12 error [E0602] Undefined variable 'undefined_name' (undefined-variable)",
    "pylint py/a.py:2:7 warning [W0613] Unused argument 'x' (unused-argument)",
    "pylint py/a.py:3:5 warning [W0612] Unused variable 'y' (unused-variable)",
    "pylint py/a.py:1:1 warning [W0611] Unused import os (unused-import)",
  ],
  "pylint-2.16.2.txt": [
    "pylint py/a.py:1:1 info [C0114] Missing module docstring (missing-module-docstring)",
    "pylint py/a.py:2:1 info [C0116] Missing function or method docstring (missing-function-docstring)",
    'pylint py/a.py:2:1 info [C0103] Function name "f" doesn\'t conform to snake_case naming style (invalid-name)',
    'pylint py/a.py:2:7 info [C0103] Argument name "x" doesn\'t conform to snake_case naming style (invalid-name)',
    "pylint py/a.py:2:7 warning [W0621] Redefining name 'x' from outer scope (line 5) (redefined-outer-name)",
    'pylint py/a.py:3:5 info [C0103] Variable name "y" doesn\'t conform to snake_case naming style (invalid-name)',
    "pylint py/a.py:4:12 error [E0602] Undefined variable 'undefined_name' (undefined-variable)",
    "pylint py/a.py:2:7 warning [W0613] Unused argument 'x' (unused-argument)",
    "pylint py/a.py:3:5 warning [W0612] Unused variable 'y' (unused-variable)",
    "pylint py/a.py:1:1 warning [W0611] Unused import os (unused-import)",
  ],
  "pytest-9.0.3-collection-error.txt": [
    "pytest tests_collect/test_b.py:0:0 error [collection] could not be collected: ModuleNotFoundError: No module named 'nonexistent_mod'",
  ],
  "pytest-9.0.3.txt": [
    "pytest tests/test_a.py:6:0 error [test_add] failed: test_add: assert -1 == 3",
    "pytest tests/test_a.py:10:0 error [test_raises] failed: test_raises: ValueError: bad value",
  ],
  "python-3.11.7-traceback.txt": [
    "python a.py:2:0 error [NameError] NameError: name 'y' is not defined",
  ],
  "rustfmt-1.9.0-stable-check.txt": [
    "rustfmt src/main.rs:1:0 error [format] not formatted as rustfmt would",
  ],
  "shellcheck-0.9.0-gcc.txt": [
    "shellcheck sh/a.sh:3:6 info [SC2086] Double quote to prevent globbing and word splitting.",
    "shellcheck sh/a.sh:4:1 warning [SC2164] Use 'cd ... || exit' or 'cd ... || return' in case cd fails.",
    "shellcheck sh/a.sh:5:4 warning [SC2046] Quote this to prevent word splitting.",
  ],
  "shellcheck-0.9.0-json1.txt": [
    "shellcheck sh/a.sh:3:6 info [SC2086] Double quote to prevent globbing and word splitting.",
    "shellcheck sh/a.sh:4:1 warning [SC2164] Use 'cd ... || exit' or 'cd ... || return' in case cd fails.",
    "shellcheck sh/a.sh:5:4 warning [SC2046] Quote this to prevent word splitting.",
  ],
  "shellcheck-0.9.0.txt": [
    "shellcheck sh/a.sh:3:6 info [SC2086] Double quote to prevent globbing and word splitting.",
    "shellcheck sh/a.sh:4:1 warning [SC2164] Use 'cd ... || exit' or 'cd ... || return' in case cd fails.",
    "shellcheck sh/a.sh:5:4 warning [SC2046] Quote this to prevent word splitting.",
  ],
  "tsc-7.0.2-pretty.txt": [
    "tsc src/a.ts:1:7 error [TS2322] Type 'string' is not assignable to type 'number'.",
    "tsc src/a.ts:3:3 error [TS2322] Type 'string' is not assignable to type 'number'.",
  ],
  "tsc-7.0.2.txt": [
    "tsc src/a.ts:1:7 error [TS2322] Type 'string' is not assignable to type 'number'.",
    "tsc src/a.ts:3:3 error [TS2322] Type 'string' is not assignable to type 'number'.",
  ],
  "vitest-4.1.12.txt": [
    "vitest src/v.test.ts:5:19 error [math > adds] failed: math > adds: AssertionError: expected 2 to be 3 // Object.is equality",
    "vitest src/v.test.ts:12:9 error [throws] failed: throws: Error: boom",
  ],
  "xo-2.0.2.txt": [
    "xo src/b.js:1:1 error [no-var] Unexpected var, use let or const instead.",
    "xo src/b.js:1:5 error [no-unused-vars] unused is assigned a value but never used. Allowed unused vars must match /^_/u.",
    "xo src/b.js:3:1 error [@stylistic/indent] Expected indentation of 1 tab but found 2 spaces.",
    "xo src/b.js:3:7 error [no-eq-null] Use === to compare with null.",
    "xo src/b.js:3:9 error [eqeqeq] Expected === and instead saw ==.",
    "xo src/b.js:3:18 error [curly] Expected { after if condition.",
    "xo src/b.js:3:25 error [no-undef] undefinedThing is not defined.",
    "xo src/b.js:5:1 error [@stylistic/padding-line-between-statements] Expected blank line before this statement.",
  ],
};

test("every fixture has its expected diagnostics", () => {
  const names = readdirSync(FIXTURES)
    .filter((n) => n !== "README.md")
    .sort();
  expect(names).toEqual(Object.keys(EXPECTED).sort());
  for (const name of names) {
    const root = rootOf(name);
    const found = parseDiagnostics(readFileSync(join(FIXTURES, name), "utf8"), { root, cwd: root });
    const shown = found.map(
      (d) =>
        `${d.tool} ${d.file}:${d.line}:${d.column} ${d.severity} [${d.code}] ${d.message.split("\n")[0]}`,
    );
    expect({ name, shown }).toEqual({ name, shown: EXPECTED[name] ?? [] });
  }
});
