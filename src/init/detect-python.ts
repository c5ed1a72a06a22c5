import { iniSections, type ProjectFiles } from "./project-files.ts";
import type { Proposal } from "./spec.ts";

/** Where a Python tool's settings live: pyproject sections, setup.cfg/tox.ini sections, own files. */
interface PyTool {
  readonly name: string;
  readonly pyproject: readonly string[];
  readonly ini: readonly string[];
  readonly files: readonly string[];
  readonly run: (bin: string) => string[];
  readonly description: string;
  readonly fixes?: boolean;
}

// Output formats (issue #20): cpilot parses each tool's readable default, and `cpilot logs`
// shows the raw log, so init keeps the readable forms and adds only what makes them exact:
// - ruff: its default (full) output, parsed with its codes; not `--output-format concise`,
//   which under `--quiet` drops the summary that tells ruff's lines from flake8's.
// - flake8 and pylint: `file:line:col: CODE message` already; pylint's JSON reads worse in a
//   log. pylint's text is named, as a pylintrc may choose `parseable` (no column, no parser).
// - mypy: `-O json` (end columns, hints) when the project requires mypy 1.11 or later, where
//   the flag exists; an older mypy rejects it, so otherwise `--show-column-numbers` (without
//   it the diagnostics point at column 0).
const TOOLS: readonly PyTool[] = [
  {
    name: "black",
    pyproject: ["tool.black"],
    ini: [],
    files: [],
    run: (bin) => [bin, "--quiet", "{files}"],
    description: "format",
    fixes: true,
  },
  {
    name: "isort",
    pyproject: ["tool.isort"],
    ini: ["isort", "tool:isort"],
    files: [".isort.cfg"],
    run: (bin) => [bin, "--quiet", "{files}"],
    description: "sort imports",
    fixes: true,
  },
  {
    name: "ruff",
    pyproject: ["tool.ruff", "tool.ruff.lint", "tool.ruff.format"],
    ini: [],
    files: ["ruff.toml", ".ruff.toml"],
    run: (bin) => [bin, "check", "--fix", "--quiet", "{files}"],
    description: "lint, fixing what it can",
    fixes: true,
  },
  {
    name: "flake8",
    pyproject: ["tool.flake8"],
    ini: ["flake8"],
    files: [".flake8"],
    run: (bin) => [bin, "{files}"],
    description: "lint",
  },
  {
    name: "pylint",
    pyproject: [
      "tool.pylint",
      "tool.pylint.main",
      "tool.pylint.MASTER",
      "tool.pylint.messages_control",
    ],
    ini: [],
    files: [".pylintrc", "pylintrc"],
    run: (bin) => [bin, "--score=n", "--output-format=text", "{files}"],
    description: "lint",
  },
  {
    name: "mypy",
    pyproject: ["tool.mypy"],
    ini: ["mypy"],
    files: ["mypy.ini", ".mypy.ini"],
    run: (bin) => [bin, "--show-column-numbers", "{files}"],
    description: "types",
  },
];

/**
 * Where a project lists its dependencies: requirement files, setup.cfg's install lists,
 * and pyproject.toml outside its [tool.*] sections (where `profile = "black"` is a setting).
 */
function dependencyText(p: ProjectFiles): string {
  const pyproject = (p.text("pyproject.toml") ?? "")
    .split(/^(?=\[)/m)
    .filter((section) => !section.startsWith("[tool."))
    .join("\n");
  const setupCfg = (p.text("setup.cfg") ?? "")
    .split(/^(?=\[)/m)
    .filter((x) => x.startsWith("[options"))
    .join("\n");
  return [pyproject, setupCfg, p.text("requirements-dev.txt"), p.text("requirements.txt")]
    .join("\n")
    .toLowerCase();
}

/** mypy prints JSON (`-O json`) from this version on. */
const MYPY_JSON_SINCE = [1, 11] as const;

/**
 * Does the project require a mypy that prints JSON: a lower bound (`==`, `>=`, `~=`,
 * poetry's `^`) of 1.11 or later in its requirement files, setup.cfg or pyproject.toml
 * (poetry's groups included)? Unpinned, cpilot cannot know: the text form works with all.
 */
export function requiresMypyJson(p: ProjectFiles): boolean {
  const texts = [
    p.text("pyproject.toml"),
    p.text("setup.cfg"),
    p.text("requirements-dev.txt"),
    p.text("requirements.txt"),
  ];
  // `mypy>=1.11` (requirements, PEP 621 lists) or `mypy = "^1.11"` (poetry), not a comment.
  const spec =
    /(?:^|["'\s,])mypy(?:\[[^\]]*\])?\s*(?:(?:==|>=|~=|===)\s*|=\s*["'](?:\^|~|>=|==)?\s*)(\d+)\.(\d+)/gim;
  for (const text of texts)
    for (const m of (text ?? "").matchAll(spec)) {
      const major = Number(m[1]);
      const minor = Number(m[2]);
      const [jsonMajor, jsonMinor] = MYPY_JSON_SINCE;
      if (major > jsonMajor || (major === jsonMajor && minor >= jsonMinor)) return true;
    }
  return false;
}

/** The project's virtualenv bin folder, relative to the root, when it has one. */
function venvBin(p: ProjectFiles): string | undefined {
  const venv = p.first(".venv/bin", "venv/bin", "env/bin");
  return venv;
}

/** Python tools configured in pyproject.toml, setup.cfg, tox.ini or their own files. */
export function detectPython(p: ProjectFiles): Proposal[] {
  const isPython = p.first(
    "pyproject.toml",
    "setup.py",
    "setup.cfg",
    "requirements.txt",
    "tox.ini",
  );
  if (!isPython) return [];
  const pyproject = iniSections(p.text("pyproject.toml") ?? "");
  const setupCfg = iniSections(p.text("setup.cfg") ?? "");
  const tox = iniSections(p.text("tox.ini") ?? "");
  const deps = dependencyText(p);
  const venv = venvBin(p);
  const bin = (tool: string): string =>
    venv && p.has(`${venv}/${tool}`) ? `${venv}/${tool}` : tool;
  const out: Proposal[] = [];
  for (const tool of TOOLS) {
    const where =
      tool.pyproject.find((s) => pyproject.has(s)) !== undefined
        ? `[${tool.pyproject.find((s) => pyproject.has(s))}] in pyproject.toml`
        : tool.ini.find((s) => setupCfg.has(s))
          ? `[${tool.ini.find((s) => setupCfg.has(s))}] in setup.cfg`
          : tool.ini.find((s) => tox.has(s))
            ? `[${tool.ini.find((s) => tox.has(s))}] in tox.ini`
            : p.first(...tool.files);
    // black reads no section of its own in many projects: a dependency on it counts.
    const declared =
      where ??
      (tool.name === "black" && /(?:^|["'\s])black(?:\[[^\]]*\])?\s*(?:[<>=~!;,"']|$)/m.test(deps)
        ? "black among the dependencies"
        : undefined);
    if (declared === undefined) continue;
    out.push({
      why: declared,
      callback: {
        name: tool.name,
        description: tool.description,
        pattern: "*.py",
        run:
          tool.name === "mypy" && requiresMypyJson(p)
            ? [bin(tool.name), "-O", "json", "{files}"]
            : tool.run(bin(tool.name)),
        timeout: tool.name === "mypy" || tool.name === "pylint" ? 120 : 60,
        ...(tool.fixes ? { fixes: true } : {}),
      },
    });
  }
  const names = new Set(out.map((o) => o.callback.name));
  if (
    names.has("ruff") &&
    !names.has("black") &&
    (pyproject.has("tool.ruff.format") || !names.has("flake8"))
  ) {
    out.unshift({
      why: "ruff configured and no other formatter",
      callback: {
        name: "ruff-format",
        description: "format",
        pattern: "*.py",
        run: [bin("ruff"), "format", "--quiet", "{files}"],
        timeout: 60,
        fixes: true,
      },
    });
  }
  if (out.length === 0) {
    out.push({
      why: "a Python project with no configured linter (ruff is the usual choice)",
      callback: {
        name: "ruff",
        description: "format and lint",
        pattern: "*.py",
        run: `${bin("ruff")} format -- "$@" && ${bin("ruff")} check --fix -- "$@"`,
        timeout: 60,
        fixes: true,
      },
    });
  }
  const pytest =
    pyproject.has("tool.pytest.ini_options") ||
    setupCfg.has("tool:pytest") ||
    tox.has("pytest") ||
    p.has("pytest.ini");
  if (pytest) {
    out.push({
      why: "pytest configured",
      callback: {
        name: "pytest",
        description: "tests, in the background",
        pattern: "*.py",
        run: `${bin("pytest")} -q -x`,
        timeout: 600,
        blocking: false,
        overlap: "replace",
      },
    });
  }
  return out;
}
