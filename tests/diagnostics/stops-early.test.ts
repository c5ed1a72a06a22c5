import { expect, test } from "bun:test";
import { stoppedEarly } from "../../src/diagnostics/baseline/stops-early.ts";
import type { Diagnostic } from "../../src/model/diagnostic.ts";

function d(tool: string, code: string): Diagnostic {
  return { file: "a.ts", line: 1, column: 1, severity: "error", code, message: "m", tool };
}

test("tsc printing only syntax or configuration errors stopped before type-checking", () => {
  expect(stoppedEarly([d("tsc", "TS1109")])).toBe(true);
  expect(stoppedEarly([d("tsc", "TS1005"), d("tsc", "TS17002")])).toBe(true);
  expect(stoppedEarly([d("tsc", "TS5069")])).toBe(true);
});

test("mypy printing a syntax error stopped before type-checking, even without its summary", () => {
  expect(stoppedEarly([d("mypy", "syntax")])).toBe(true);
  expect(stoppedEarly([d("mypy", "assignment")])).toBe(false);
  expect(stoppedEarly([d("ruff", "syntax")])).toBe(false);
});

test("tsc printing a type error went on to type-check", () => {
  expect(stoppedEarly([d("tsc", "TS2322")])).toBe(false);
  expect(stoppedEarly([d("tsc", "TS1308"), d("tsc", "TS2322")])).toBe(false);
  expect(stoppedEarly([d("tsc", "TS2322"), d("tsc", "TS1308")])).toBe(false);
});

test("the tools that stop at their first failing unit, and the others", () => {
  expect(stoppedEarly([d("rustc", "E0308")])).toBe(true);
  expect(stoppedEarly([d("go", "")])).toBe(true);
  expect(stoppedEarly([d("eslint", "no-undef")])).toBe(false);
  expect(stoppedEarly([])).toBe(false);
});

test("a tool that stops early among others' diagnostics still says so", () => {
  expect(stoppedEarly([d("tsc", "TS2322"), d("clippy", "clippy::needless_return")])).toBe(true);
});
