/**
 * Parsers against the tools themselves, run live where they are installed (the others are
 * covered by the captured fixtures in parse-fixtures.test.ts). A missing tool skips its test.
 */
import { expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { parseDiagnostics } from "../../src/diagnostics/parse-output.ts";
import { tempDir, writeFiles } from "../helpers/tmp.ts";

const REPO = join(import.meta.dir, "..", "..");
const BIN = join(REPO, "node_modules", ".bin");

function which(tool: string): string {
  if (tool.startsWith("/")) return tool;
  return spawnSync("sh", ["-c", `command -v ${tool}`], { encoding: "utf8" }).stdout.trim();
}

/** Run `argv` in a fresh folder holding `files`; the diagnostics of its stdout and stderr. */
function live(files: Record<string, string>, argv: string[], env: Record<string, string> = {}) {
  const root = tempDir("cpilot-live-");
  writeFiles(root, files);
  const r = spawnSync(argv[0] as string, argv.slice(1), {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1", ...env },
    timeout: 120_000,
  });
  const found = parseDiagnostics(`${r.stdout}${r.stderr}`, { root, cwd: root });
  return found.map((d) => `${d.tool} ${d.file}:${d.line}:${d.column} ${d.severity} [${d.code}]`);
}

const cases: { tool: string; files: Record<string, string>; argv: string[]; expected: string[] }[] =
  [
    {
      tool: join(BIN, "biome"),
      files: { "src/a.js": "debugger;\n" },
      argv: [join(BIN, "biome"), "lint", "src/a.js"],
      expected: ["biome src/a.js:1:1 error [lint/suspicious/noDebugger]"],
    },
    {
      tool: join(BIN, "tsc"),
      files: { "a.ts": 'const x: number = "s";\nexport {};\n' },
      argv: [join(BIN, "tsc"), "--noEmit", "--strict", "a.ts"],
      expected: ["tsc a.ts:1:7 error [TS2322]"],
    },
    {
      tool: "gcc",
      files: { "src/c.c": "int main(void) {\n  int unused = 1;\n  return y;\n}\n" },
      argv: ["gcc", "-Wall", "-fsyntax-only", "src/c.c"],
      expected: ["gcc src/c.c:3:10 error []", "gcc src/c.c:2:7 warning [-Wunused-variable]"],
    },
    {
      // Debian's clang package has `clang-14`; the `clang` one adds the plain name.
      tool: which("clang") === "" ? "clang-14" : "clang",
      files: { "src/c.c": "int main(void) {\n  int unused = 1;\n  return y;\n}\n" },
      argv: [which("clang") === "" ? "clang-14" : "clang", "-Wall", "-fsyntax-only", "src/c.c"],
      // clang stops before the unused-variable warning when a name is undeclared.
      expected: ["clang src/c.c:3:10 error []"],
    },
    {
      tool: "rustfmt",
      files: { "m.rs": "fn main() {\nlet x=1;\n}\n" },
      argv: ["rustfmt", "--check", "--edition", "2021", "m.rs"],
      expected: ["rustfmt m.rs:1:0 error [format]"],
    },
    {
      tool: "pytest",
      files: { "test_a.py": "def test_adds():\n    assert 1 + 1 == 3\n" },
      argv: ["python3", "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_a.py"],
      expected: ["pytest test_a.py:2:0 error [test_adds]"],
    },
    {
      tool: "rustc",
      files: { "m.rs": 'fn main() {\n    let unused = 1;\n    println!("{}", y);\n}\n' },
      // Never `-o /dev/null`: rustc renames its output over the path, and as root it replaced
      // the device with a file (git, setsid and every test after failed).
      argv: ["rustc", "--emit=metadata", "-o", "m.rmeta", "m.rs"],
      // rustc stops before its lints when name resolution fails: the error alone.
      expected: ["rustc m.rs:3:20 error [E0425]"],
    },
    {
      tool: "flake8",
      files: { "a.py": "import os\n" },
      argv: ["flake8", "a.py"],
      expected: ["flake8 a.py:1:1 error [F401]"],
    },
    {
      tool: "mypy",
      files: { "a.py": 'x: int = "s"\n' },
      argv: ["mypy", "--no-incremental", "--show-column-numbers", "a.py"],
      expected: ["mypy a.py:1:10 error [assignment]"],
    },
    {
      tool: "pylint",
      files: { "a.py": '"""Doc."""\nprint(undefined_name)\n' },
      argv: ["pylint", "--disable=all", "--enable=undefined-variable", "a.py"],
      expected: ["pylint a.py:2:7 error [E0602]"],
    },
    {
      tool: "shellcheck",
      files: { "a.sh": "#!/bin/sh\necho $1\n" },
      argv: ["shellcheck", "a.sh"],
      expected: ["shellcheck a.sh:2:6 info [SC2086]"],
    },
    {
      tool: "black",
      files: { "a.py": "x=1\n" },
      argv: ["black", "--check", "a.py"],
      expected: ["black a.py:0:0 error [format]"],
    },
    {
      tool: "python3",
      files: { "a.py": "def f():\n    return y\n\nf()\n" },
      argv: ["python3", "a.py"],
      expected: ["python a.py:2:0 error [NameError]"],
    },
    {
      tool: "node",
      files: { "a.js": "function f() {\n  return y;\n}\nf();\n" },
      argv: ["node", "a.js"],
      expected: ["node a.js:2:3 error [ReferenceError]"],
    },
  ];

for (const c of cases) {
  test.skipIf(which(c.tool) === "")(
    `${c.tool.split("/").at(-1)}, live`,
    () => {
      expect(live(c.files, c.argv)).toEqual(c.expected);
    },
    120_000,
  );
}

test.skipIf(which("go") === "")(
  "go vet and go test, live",
  () => {
    const files = {
      "go.mod": "module example.com/d\n\ngo 1.19\n",
      "main.go": 'package main\n\nimport "fmt"\n\nfunc main() {\n\tfmt.Printf("%d\\n", "s")\n}\n',
      "add_test.go":
        'package main\n\nimport "testing"\n\nfunc TestAdd(t *testing.T) {\n\tt.Errorf("got %d", 1)\n}\n',
    };
    const home = tempDir("cpilot-gohome-");
    const env = { HOME: home, GOPATH: join(home, "go"), GOFLAGS: "-mod=mod", GOPROXY: "off" };
    expect(live(files, ["go", "vet", "."], env)).toEqual(["go main.go:6:2 error []"]);
    expect(live(files, ["go", "test", "-vet=off", "."], env)).toEqual([
      "go-test add_test.go:6:0 error [TestAdd]",
    ]);
  },
  240_000,
);

test("bun test, live", () => {
  const files = {
    "a.test.ts":
      'import { expect, test } from "bun:test";\ntest("adds", () => {\n  expect(1 + 1).toBe(3);\n});\n',
  };
  expect(live(files, [process.execPath, "test", "a.test.ts"])).toEqual([
    "bun-test a.test.ts:3:17 error [adds]",
  ]);
}, 120_000);
