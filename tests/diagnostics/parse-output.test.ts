import { expect, test } from "bun:test";
import { validateConfig } from "../../src/config/validate.ts";
import { githubAnnotations } from "../../src/diagnostics/export-github.ts";
import { parseDiagnostics, parseOutput } from "../../src/diagnostics/parse-output.ts";
import { GENERIC, PARSERS } from "../../src/diagnostics/registry.ts";
import { FORMAT_ALIASES, FORMAT_NAMES } from "../../src/model/diagnostic-formats.ts";

const base = { root: "/p", cwd: "/p" };
const brief = (text: string, format?: string) =>
  parseDiagnostics(text, { ...base, format }).map(
    (d) => `${d.tool} ${d.file}:${d.line}:${d.column} ${d.severity} [${d.code}] ${d.message}`,
  );

test("colour codes and progress redraws are gone before parsing", () => {
  const text =
    "\x1b[96msrc/a.ts\x1b[0m:\x1b[93m1\x1b[0m:\x1b[93m7\x1b[0m - \x1b[91merror\x1b[0m\x1b[90m TS2322: \x1b[0mbad\n";
  expect(brief(text)).toEqual(["tsc src/a.ts:1:7 error [TS2322] bad"]);
  expect(
    brief("building 10%\rbuilding 100%\rsrc/a.ts(2,3): error TS1005: ';' expected.\r\n"),
  ).toEqual(["tsc src/a.ts:2:3 error [TS1005] ';' expected."]);
});

test("paths become root-relative and posix; a path outside the root stays absolute", () => {
  const text = [
    "/p/src/a.py:1:1: F401 'os' imported but unused",
    "./src/b.py:2:1: F401 'sys' imported but unused",
    "src\\c.py:3:1: F401 're' imported but unused",
    "/elsewhere/d.py:4:1: F401 'x' imported but unused",
  ].join("\n");
  expect(parseDiagnostics(text, { root: "/p", cwd: "/p" }).map((d) => d.file)).toEqual([
    "src/a.py",
    "src/b.py",
    "src/c.py",
    "/elsewhere/d.py",
  ]);
  // A callback running in a subfolder prints paths relative to it.
  expect(
    parseDiagnostics("a.py:1:1: F401 'os' imported but unused", { root: "/p", cwd: "/p/pkg" })[0]
      ?.file,
  ).toBe("pkg/a.py");
});

test("the generic path:line matcher only speaks when no format was recognized", () => {
  expect(brief("npm warn deprecated\nlib/x.rb:12: syntax error, unexpected end\n")).toEqual([
    "generic lib/x.rb:12:0 error [] syntax error, unexpected end",
  ]);
  // With a recognized format, other path:line lines are not guessed at.
  expect(
    brief("src/a.ts(1,7): error TS2322: bad\nsee docs/guide.md:12 for more\n").map(
      (l) => l.split(" ")[0],
    ),
  ).toEqual(["tsc"]);
  expect(brief("all good, 12 files checked\n")).toEqual([]);
  // A bare spot with nothing said is left to the raw output.
  expect(brief("dist/x.min.js:1\n")).toEqual([]);
  // An address is not a file.
  expect(brief("127.0.0.1:5432 refused the connection\n")).toEqual([]);
});

test("format: forces one format, or none", () => {
  const text = "src/a.c:3:10: error: 'y' undeclared\n";
  expect(brief(text, "gcc")).toEqual(["gcc src/a.c:3:10 error [] 'y' undeclared"]);
  expect(brief(text, "none")).toEqual([]);
  // Forced to a format that is not there, the generic matcher is not tried either.
  expect(brief(text, "eslint")).toEqual([]);
});

test("the same diagnostic printed twice (cargo's lib and lib test builds) is kept once", () => {
  const once = "warning: unused variable: `x`\n --> src/lib.rs:2:9\n  |\n\n";
  expect(brief(once + once)).toEqual(["rustc src/lib.rs:2:9 warning [] unused variable: `x`"]);
});

test("every parser's name is a format the config accepts, and so is every alias", () => {
  const names: readonly string[] = FORMAT_NAMES;
  for (const p of [...PARSERS, GENERIC]) expect(names).toContain(p.name);
  for (const [alias, target] of Object.entries(FORMAT_ALIASES)) {
    expect(names).toContain(alias);
    expect(names).toContain(target);
  }
});

test("config: format and report are checked like every other key", () => {
  const ok = validateConfig({
    callbacks: [{ name: "a", pattern: "*", run: "x", timeout: 5, format: "clippy", report: "all" }],
  });
  expect(ok.ok).toBe(true);
  const bad = validateConfig({
    callbacks: [
      { name: "a", pattern: "*", run: "x", timeout: 5, format: "eslint-xml", report: "some" },
    ],
  });
  expect(bad.ok).toBe(false);
  const paths = bad.ok ? [] : bad.problems.map((p) => p.path);
  expect(paths).toEqual(["callbacks[0].format", "callbacks[0].report"]);
});

test("workflow commands read back what cpilot's own annotations wrote, escapes and all", () => {
  const run = {
    id: "r1",
    callback: "lint",
    files: [],
    blocking: true,
    status: "failed" as const,
    exitCode: 1,
    signal: null,
    durationMs: 1,
    logPath: "",
    tail: [],
    summary: "exit 1",
    successMessage: undefined,
    diagnostics: [
      {
        file: "src/x,y:z.ts",
        line: 3,
        column: 2,
        severity: "warning" as const,
        code: "c1",
        message: "100% sure\nsecond line",
        tool: "t",
      },
    ],
  };
  const text = githubAnnotations([run], "/p").join("\n");
  expect(parseDiagnostics(text, base)).toEqual([
    {
      file: "src/x,y:z.ts",
      line: 3,
      column: 2,
      severity: "warning",
      code: "lint: t c1",
      message: "100% sure\nsecond line",
      tool: "github",
    },
  ]);
});

test("a limit reads the output's first diagnostics and says it stopped there", () => {
  const text = (n: number) =>
    Array.from({ length: n }, (_, i) => `src/a.ts(${i + 1},1): error TS2322: bad ${i}`).join("\n");
  const under = parseOutput(text(3), { ...base, limit: 3 });
  expect(under.diagnostics.map((d) => d.line)).toEqual([1, 2, 3]);
  // exactly the limit: more may follow, so it says so ("at least")
  expect(under.cut).toBe(true);
  const over = parseOutput(text(10), { ...base, limit: 4 });
  expect(over.diagnostics.map((d) => d.line)).toEqual([1, 2, 3, 4]);
  expect(over.cut).toBe(true);
  expect(parseOutput(text(10), base)).toEqual({ diagnostics: expect.any(Array), cut: false });
  expect(parseOutput(text(10), base).diagnostics).toHaveLength(10);
  // the generic fallback is held to it too
  const plain = Array.from({ length: 6 }, (_, i) => `notes/x.md:${i + 1}: something`).join("\n");
  expect(parseOutput(plain, { ...base, limit: 2 })).toMatchObject({ cut: true });
  expect(parseOutput(plain, { ...base, limit: 2 }).diagnostics).toHaveLength(2);
});

test("pyright: a message's indented later lines stay with it, the rule becomes its code", () => {
  const text = [
    "/p/py/a.py",
    '  /p/py/a.py:8:10 - error: Type "int" is not assignable to declared type "str"',
    '    "int" is not assignable to "str" (reportAssignmentType)',
    '  /p/py/a.py:9:7 - information: "x" is "int"',
    "1 error, 0 warnings, 1 information ",
  ].join("\n");
  expect(brief(text)).toEqual([
    'pyright py/a.py:8:10 error [reportAssignmentType] Type "int" is not assignable to declared type "str"\n"int" is not assignable to "str"',
    'pyright py/a.py:9:7 info [] "x" is "int"',
  ]);
});

test("biome's word that it left diagnostics out marks the output as read in part", () => {
  const shown = [
    "src/a.js:1:1 lint/suspicious/noDebugger  FIXABLE  ━━━━━━━━━━",
    "",
    "  × This is an unexpected use of the debugger statement.",
    "",
  ].join("\n");
  const whole = parseOutput(`${shown}\nChecked 1 file in 17ms. No fixes applied.\n`, base);
  expect(whole.cut).toBe(false);
  expect(whole.hidden).toBeUndefined();
  const part = parseOutput(
    `${shown}\nThe number of diagnostics exceeds the limit allowed. Use --max-diagnostics to increase it.\nDiagnostics not shown: 6.\nChecked 1 file in 17ms. No fixes applied.\n`,
    base,
  );
  expect(part.diagnostics).toHaveLength(1);
  expect(part.cut).toBe(true);
  expect(part.hidden).toBe(true);
});

test("mypy's word that a blocking error kept it from checking the rest marks the output as stopped", () => {
  const blocked = parseOutput(
    "src/old.py:1:13: error: invalid syntax  [syntax]\nFound 1 error in 1 file (errors prevented further checking)\n",
    base,
  );
  expect(blocked.diagnostics).toHaveLength(1);
  expect(blocked.stopped).toBe(true);
  expect(blocked.cut).toBe(false);
  // `-O json` (mypy 1.11 and later) prints the same summary after its lines
  const json = parseOutput(
    '{"file": "src/old.py", "line": 0, "column": 12, "message": "invalid syntax", "hint": null, "code": "syntax", "severity": "error"}\nFound 1 error in 1 file (errors prevented further checking)\n',
    base,
  );
  expect(json.diagnostics).toHaveLength(1);
  expect(json.stopped).toBe(true);
  const checked = parseOutput(
    'src/c.py:1:14: error: Incompatible types in assignment (expression has type "str", variable has type "int")  [assignment]\nFound 1 error in 1 file (checked 3 source files)\n',
    base,
  );
  expect(checked.stopped).toBeUndefined();
});
