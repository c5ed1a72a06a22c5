import { existsSync } from "node:fs";
import { join, relative } from "node:path";
import { RunEvidence } from "./evidence.ts";
import { iniSections, type ProjectFiles } from "./project-files.ts";
import type { Proposal } from "./spec.ts";

interface PyTool {
  readonly name: string;
  readonly pyproject: readonly string[];
  readonly ini: readonly string[];
  readonly files: readonly string[];
  readonly run: (bin: string) => string[];
  readonly description: string;
  readonly fixes?: boolean;
}

// cpilot parses each tool's readable default and `cpilot logs` shows the raw log, so init
// keeps the readable forms: ruff's full output (`--output-format concise` under `--quiet`
// drops what tells ruff's lines from flake8's); pylint's text named, since a pylintrc may
// pick `parseable`; mypy `-O json` only where the project requires 1.11+ (older rejects
// it), else `--show-column-numbers`.
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
    run: (bin) => [bin, "check", "--quiet", "{files}"],
    description: "lint",
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
  {
    // over what its settings include, as the project runs it: an edit's effect on other
    // modules is seen
    name: "pyright",
    pyproject: ["tool.pyright"],
    ini: [],
    files: ["pyrightconfig.json"],
    run: (bin) => [bin],
    description: "types",
  },
];

/** pyproject.toml outside [tool.*] sections, where `profile = "black"` is a setting. */
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
 * A lower bound of 1.11 or later in requirements, setup.cfg or pyproject.toml (poetry's
 * groups too). Unpinned, cpilot cannot know: the text form works with all.
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

/** `fix = true` in `[tool.ruff]`, or at the top of ruff.toml / .ruff.toml. */
function ruffFixesBySettings(
  p: ProjectFiles,
  pyproject: Map<string, Map<string, string>>,
): boolean {
  const own = p.first("ruff.toml", ".ruff.toml");
  const settings =
    own !== undefined ? iniSections(p.text(own) ?? "").get("") : pyproject.get("tool.ruff");
  return settings?.get("fix") === "true";
}

/** Relative to the package: its own, else the project root's (a workspace's one environment). */
function venvBin(p: ProjectFiles): string | undefined {
  const own = p.first(".venv/bin", "venv/bin", "env/bin");
  if (own !== undefined || p.top === p.root) return own;
  const up = relative(p.root, p.top);
  for (const venv of [".venv/bin", "venv/bin", "env/bin"])
    if (existsSync(join(p.top, venv))) return `${up}/${venv}`;
  return undefined;
}

/** Python tools configured in pyproject.toml, setup.cfg, tox.ini or their own files. */
export function detectPython(p: ProjectFiles): Proposal[] {
  return detectPythonWithNotes(p).proposals;
}

/** They read type stubs (`.pyi`) by default: a stub an agent edits is linted, formatted, checked. */
const STUBS = new Set(["ruff", "black", "isort", "mypy", "pyright"]);

/** Tools that do one job: where one is run, a config of another left behind is not evidence. */
const SAME_JOB: readonly (readonly string[])[] = [
  ["ruff", "flake8", "pylint"],
  ["ruff", "isort"],
  ["ruff-format", "black"],
];

/** With what it left out and why, for the plan. */
export function detectPythonWithNotes(p: ProjectFiles): { proposals: Proposal[]; notes: string[] } {
  const notes: string[] = [];
  const evidence = new RunEvidence(p);
  const isPython = p.first(
    "pyproject.toml",
    "setup.py",
    "setup.cfg",
    "requirements.txt",
    "tox.ini",
  );
  if (!isPython) return { proposals: [], notes };
  const pyproject = iniSections(p.text("pyproject.toml") ?? "");
  const setupCfg = iniSections(p.text("setup.cfg") ?? "");
  const tox = iniSections(p.text("tox.ini") ?? "");
  const deps = dependencyText(p);
  const venv = venvBin(p);
  const bin = (tool: string): string =>
    venv && p.has(`${venv}/${tool}`) ? `${venv}/${tool}` : tool;
  const out: Proposal[] = [];
  // In a workspace member, a tool only the root's CI, Makefile or hooks run, with no settings
  // of the member's own: the root's callback of it covers the member (`uv run ruff` at the root)
  const rootOnly = (...tools: string[]) => {
    const lines = tools.flatMap((t) => evidence.mentions(t));
    return lines.length > 0 && lines.every((l) => l.atRoot === true)
      ? ({ rootEvidenceOnly: true } as const)
      : {};
  };
  for (const tool of TOOLS) {
    const where =
      tool.pyproject.find((s) => pyproject.has(s)) !== undefined
        ? `[${tool.pyproject.find((s) => pyproject.has(s))}] in pyproject.toml`
        : tool.ini.find((s) => setupCfg.has(s))
          ? `[${tool.ini.find((s) => setupCfg.has(s))}] in setup.cfg`
          : tool.ini.find((s) => tox.has(s))
            ? `[${tool.ini.find((s) => tox.has(s))}] in tox.ini`
            : p.first(...tool.files);
    const ranBy = evidence.where(tool.name === "black" ? "black" : tool.name);
    // A dependency is not evidence (black in the dependencies of a project formatted with
    // ruff format would rewrite most of it); what runs the tool, or its settings, are.
    const declared = ranBy ?? where;
    if (declared === undefined) {
      if (
        tool.name === "black" &&
        /(?:^|["'\s])black(?:\[[^\]]*\])?\s*(?:[<>=~!;,"']|$)/m.test(deps)
      )
        notes.push("black: left out, only a dependency (nothing runs it, no [tool.black])");
      continue;
    }
    const checkOnly = tool.name === "isort" && evidence.near("isort", /--check(-only)?\b/);
    // `fix = true` in ruff's settings makes a plain `ruff check` rewrite files: the project
    // fixes, whatever its command line says, unless that says `--no-fix`
    const fix =
      tool.name === "ruff" &&
      !evidence.near("ruff", /--no-fix\b/) &&
      (evidence.near("ruff", /--fix\b/) || ruffFixesBySettings(p, pyproject));
    const run =
      tool.name === "mypy"
        ? mypyRun(p, bin(tool.name), pyproject)
        : checkOnly
          ? [bin("isort"), "--check-only", "--diff", "--quiet", "{files}"]
          : fix
            ? [bin("ruff"), "check", "--fix", "--quiet", "{files}"]
            : tool.name === "ruff" && ruffFixesBySettings(p, pyproject)
              ? [bin("ruff"), "check", "--no-fix", "--quiet", "{files}"]
              : tool.run(bin(tool.name));
    out.push({
      why: declared + (ranBy !== undefined && where !== undefined ? ` (settings: ${where})` : ""),
      ...(where === undefined ? rootOnly(tool.name) : {}),
      callback: {
        name: tool.name,
        description: checkOnly
          ? "import order, checked as the project checks it"
          : fix
            ? "lint, fixing what it can"
            : tool.description,
        pattern: STUBS.has(tool.name) ? ["*.py", "*.pyi"] : "*.py",
        run,
        timeout: ["mypy", "pylint", "pyright"].includes(tool.name) ? 120 : 60,
        ...((tool.fixes && !checkOnly) || fix ? { fixes: true } : {}),
        ...(!run.includes("{files}") ? { overlap: "replace" as const } : {}),
      },
    });
  }
  // A config of a tool no one runs, beside one of the same job that is run (or configured
  // in pyproject.toml, as ruff replaces flake8): a leftover.
  for (const group of SAME_JOB) {
    const found = out.filter((o) => group.includes(o.callback.name));
    const run = found.filter((o) => evidence.where(o.callback.name) !== undefined);
    const keep = run.length > 0 ? run : found.filter((o) => o.callback.name === "ruff");
    if (keep.length === 0) continue;
    for (const o of found)
      if (!keep.includes(o) && evidence.where(o.callback.name) === undefined) {
        out.splice(out.indexOf(o), 1);
        notes.push(
          `${o.callback.name}: left out, ${o.why} but nothing runs it, and ${keep[0]!.callback.name} does its job here`,
        );
      }
  }
  const names = new Set(out.map((o) => o.callback.name));
  if (names.has("ruff") && !names.has("black")) {
    const formatWhere = pyproject.has("tool.ruff.format")
      ? "[tool.ruff.format] in pyproject.toml"
      : (evidence.where("ruff-format") ??
        (evidence.mentions("ruff").some((l) => /ruff\s+format/.test(l.line))
          ? evidence.where("ruff")
          : undefined));
    if (formatWhere !== undefined)
      out.unshift({
        why: formatWhere,
        ...(!pyproject.has("tool.ruff.format") && !p.first("ruff.toml", ".ruff.toml")
          ? rootOnly("ruff", "ruff-format")
          : {}),
        callback: {
          name: "ruff-format",
          description: "format",
          pattern: ["*.py", "*.pyi"],
          run: [bin("ruff"), "format", "--quiet", "{files}"],
          timeout: 60,
          fixes: true,
        },
      });
    else notes.push("ruff format: left out, nothing shows the project formats with it");
  }
  if (out.length === 0)
    notes.push(
      "a Python project with no linter or formatter it runs: nothing proposed (ruff is the usual choice: `cpilot add`)",
    );
  // pytest 9 reads [tool.pytest] (native TOML) beside the older [tool.pytest.ini_options]
  const pytestWhere = pyproject.has("tool.pytest")
    ? "[tool.pytest] in pyproject.toml"
    : pyproject.has("tool.pytest.ini_options")
      ? "[tool.pytest.ini_options] in pyproject.toml"
      : setupCfg.has("tool:pytest")
        ? "[tool:pytest] in setup.cfg"
        : tox.has("pytest")
          ? "[pytest] in tox.ini"
          : (p.first("pytest.ini") ?? evidence.where("pytest"));
  if (pytestWhere !== undefined) {
    out.push({
      why: pytestWhere,
      ...(pytestWhere === evidence.where("pytest") ? rootOnly("pytest") : {}),
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
  return { proposals: out, notes };
}

/**
 * Over what mypy checks rather than the edited files, so a rename that breaks another
 * module is found: its configured `files`, else `src/`, else the project's package.
 */
function mypyRun(
  p: ProjectFiles,
  bin: string,
  pyproject: ReadonlyMap<string, ReadonlyMap<string, string>>,
): string[] {
  const json = requiresMypyJson(p) ? ["-O", "json"] : ["--show-column-numbers"];
  const files =
    pyproject.get("tool.mypy")?.get("files") ??
    iniSections(p.text("mypy.ini") ?? p.text("setup.cfg") ?? "")
      .get("mypy")
      ?.get("files");
  if (files !== undefined) return [bin, ...json];
  if (p.has("src")) return [bin, ...json, "src"];
  const name = pyproject.get("project")?.get("name")?.replace(/-/g, "_");
  if (name !== undefined && p.has(`${name}/__init__.py`)) return [bin, ...json, name];
  return [bin, ...json, "{files}"];
}
