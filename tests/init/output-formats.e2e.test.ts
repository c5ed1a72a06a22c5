/**
 * What init writes, run with the real tools: each callback's output is read as diagnostics
 * (file, line, column, code) in `check --json`. A tool not installed here skips its test.
 */
import { expect, test } from "bun:test";
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { cpilot } from "../helpers/binary.ts";
import { tempDir } from "../helpers/tmp.ts";

const FIXTURES = join(import.meta.dir, "..", "fixtures", "projects");
const REPO_BIN = join(import.meta.dir, "..", "..", "node_modules", ".bin");

/** Where `tool` is: on this PATH, or on a login shell's (cargo's installer puts it there). */
function which(tool: string): string {
  const find = (shell: string, flag: string): string =>
    spawnSync(shell, [flag, `command -v ${tool}`], { encoding: "utf8" }).stdout.trim();
  return find("sh", "-c") || find("bash", "-lc");
}

/** A fixture (or files) in a fresh committed git repo, with `cpilot init --yes` run in it. */
function initProject(fixture: string, files: Record<string, string> = {}): string {
  const root = tempDir("cpilot-initfmt-", { git: true });
  if (fixture !== "") cpSync(join(FIXTURES, fixture), root, { recursive: true });
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  execFileSync("git", ["add", "-A"], { cwd: root });
  execFileSync("git", ["commit", "-qm", "fixture"], { cwd: root });
  expect(cpilot(["init", "--yes"], { cwd: root }).code).toBe(0);
  return root;
}

/** `check --all --json --only <callback>`: its diagnostics as `tool file:line:col [code]`. */
function diagnostics(root: string, callback: string, env: Record<string, string> = {}): string[] {
  const r = cpilot(["check", "--all", "--json", "--only", callback], { cwd: root, env });
  const report = JSON.parse(r.stdout) as {
    runs: {
      diagnostics?: { tool: string; file: string; line: number; column: number; code: string }[];
    }[];
  };
  return report.runs.flatMap((run) =>
    (run.diagnostics ?? []).map((d) => `${d.tool} ${d.file}:${d.line}:${d.column} [${d.code}]`),
  );
}

const PY_BAD = 'import os\n\n\ndef f(x: int) -> int:\n    return "s"\n';

test.skipIf(which("flake8") === "" || which("mypy") === "")(
  "Python (flake8, mypy): codes and columns parsed from what init runs",
  () => {
    const root = initProject("python-black");
    writeFileSync(join(root, "src", "pkg", "__init__.py"), PY_BAD);
    expect(diagnostics(root, "flake8")).toEqual(["flake8 src/pkg/__init__.py:1:1 [F401]"]);
    // --show-column-numbers: without it mypy's diagnostics point at column 0.
    expect(diagnostics(root, "mypy")).toEqual(["mypy src/pkg/__init__.py:5:12 [return-value]"]);
  },
  120_000,
);

test.skipIf(which("pylint") === "")(
  "pylint: its text output parsed with the message code, whatever format the project's config picks",
  () => {
    const root = initProject("", {
      "pyproject.toml":
        '[project]\nname = "p"\n\n[tool.pylint.main]\ndisable = ["C"]\n\n[tool.pylint.reports]\noutput-format = "parseable"\n',
      "p.py": "print(undefined_name)\n",
    });
    expect(diagnostics(root, "pylint")).toEqual(["pylint p.py:1:7 [E0602]"]);
  },
  120_000,
);

test.skipIf(which("cargo") === "")(
  "clippy --message-format short: compile errors with their code, lint warnings located",
  () => {
    // As `cargo new` writes it: the build folder is not the project's change.
    const root = initProject("rust-2024", { ".gitignore": "/target\n" });
    const env = { PATH: `${dirname(which("cargo"))}:/usr/local/bin:/usr/bin:/bin` };
    writeFileSync(
      join(root, "src", "lib.rs"),
      "mod digits;\n\npub fn format(n: u32) -> String {\n    digits::render(missing)\n}\n",
    );
    expect(diagnostics(root, "clippy", env)).toEqual(["rustc src/lib.rs:4:20 [E0425]"]);
    writeFileSync(
      join(root, "src", "lib.rs"),
      "mod digits;\n\npub fn format(n: u32) -> String {\n    let unused = 1;\n    digits::render(n)\n}\n",
    );
    // The short format names no lint: the location and the message carry it.
    expect(diagnostics(root, "clippy", env)).toEqual(["rustc src/lib.rs:4:9 []"]);
  },
  300_000,
);

test("biome and tsc: their default output parsed with rule and error codes", () => {
  const root = initProject("biome-app");
  mkdirSync(join(root, "node_modules", ".bin"), { recursive: true });
  for (const bin of ["biome", "tsc"])
    symlinkSync(join(REPO_BIN, bin), join(root, "node_modules", ".bin", bin));
  writeFileSync(
    join(root, "src", "index.ts"),
    "export function f(): number {\n\tdebugger;\n\treturn 's';\n}\n",
  );
  // formatted as biome formats here (tabs, single quotes): its check reports the lint alone
  expect(diagnostics(root, "biome")).toEqual([
    "biome src/index.ts:2:2 [lint/suspicious/noDebugger]",
  ]);
  expect(diagnostics(root, "typecheck")).toEqual(["tsc src/index.ts:3:2 [TS2322]"]);
}, 120_000);

test.skipIf(which("go") === "")(
  "go vet: its output parsed with the file and line",
  () => {
    const root = initProject("", {
      "go.mod": "module example.com/d\n\ngo 1.19\n",
      "main.go": 'package main\n\nimport "fmt"\n\nfunc main() {\n\tfmt.Printf("%d\\n", "s")\n}\n',
    });
    const home = tempDir("cpilot-initfmt-gohome-");
    const env = { HOME: home, GOPATH: join(home, "go"), GOFLAGS: "-mod=mod", GOPROXY: "off" };
    expect(diagnostics(root, "go-vet", env)).toEqual(["go main.go:6:2 []"]);
  },
  240_000,
);

test.skipIf(which("ruff") === "")(
  "ruff: its full output parsed with the rule code, what --fix left",
  () => {
    const root = initProject("", {
      "pyproject.toml": '[project]\nname = "p"\n\n[tool.ruff]\nline-length = 88\n',
      "p.py": "def f():\n    return 1\n",
    });
    writeFileSync(join(root, "p.py"), "import os\n\n\ndef f():\n    return undefined_name\n");
    // --fix removed the unused import, so the name is on line 4.
    const env = { PATH: `${dirname(which("ruff"))}:/usr/local/bin:/usr/bin:/bin` };
    expect(diagnostics(root, "ruff", env)).toEqual(["ruff p.py:4:12 [F821]"]);
  },
  120_000,
);
