import { expect, test } from "bun:test";
import { checksWholeProject, readsBeyondItsFiles } from "../../src/engine/run-scope.ts";

test("a command that takes no files checks the whole project; one that takes them may not", () => {
  expect(checksWholeProject("tsc -p .")).toBe(true);
  expect(checksWholeProject("npm run --silent lint")).toBe(true);
  expect(checksWholeProject(["cargo", "check"])).toBe(true);
  expect(checksWholeProject('eslint --fix "$@"')).toBe(false);
  expect(checksWholeProject("ruff check $*")).toBe(false);
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a bash string, not a template
  expect(checksWholeProject('mypy "${@}"')).toBe(false);
  expect(checksWholeProject('test $# -gt 0 && black "$1"')).toBe(false);
  expect(checksWholeProject("lint-changed --files=$CP_CHANGED_FILES")).toBe(false);
  expect(checksWholeProject(["eslint", "{files}"])).toBe(false);
  expect(checksWholeProject(["prettier", "--write={file}"])).toBe(false);
  expect(checksWholeProject(() => undefined)).toBe(false);
});

test("checkers that read imports are keyed by the whole project even when given their files", () => {
  expect(readsBeyondItsFiles('mypy "$@"')).toBe(true);
  expect(readsBeyondItsFiles(["npx", "eslint", "{files}"])).toBe(true);
  expect(readsBeyondItsFiles('uv run mypy "$@"')).toBe(true);
  expect(readsBeyondItsFiles('./node_modules/.bin/tsc --noEmit "$@"')).toBe(true);
  expect(readsBeyondItsFiles("tsc -p .")).toBe(true);
  expect(readsBeyondItsFiles('ruff check "$@"')).toBe(false);
  expect(readsBeyondItsFiles(["prettier", "--check", "{files}"])).toBe(false);
  expect(readsBeyondItsFiles(async () => {})).toBe(true);
});
