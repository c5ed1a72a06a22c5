import { expect, test } from "bun:test";
import { describeExit } from "../../src/engine/exit-words.ts";
import { toolOf } from "../../src/engine/tool-exit-words.ts";

test("the tool a run starts, past env assignments, runners and paths", () => {
  expect(toolOf("node_modules/.bin/tsc --noEmit -p .")).toBe("tsc");
  expect(toolOf(["npx", "--no-install", "eslint", "{files}"])).toBe("eslint");
  expect(toolOf("FOO=1 .venv/bin/mypy src && echo ok")).toBe("mypy");
  expect(toolOf("cargo clippy -- -D warnings")).toBe("cargo");
  expect(toolOf(() => 0)).toBeNull();
});

test("exit codes in the tool's own words; unknown tools keep the generic ones", () => {
  // tsc: 1 and 2 both mean errors were reported (TypeScript 5 exits 2 under --noEmit too).
  expect(describeExit(2, null, "tsc")).toBe("exit 2 (type errors reported)");
  expect(describeExit(1, null, "tsc")).toBe("exit 1 (type errors reported)");
  expect(describeExit(5, null, "pytest")).toBe("exit 5 (no tests collected)");
  expect(describeExit(20, null, "pylint")).toBe("exit 20 (warnings, convention messages)");
  expect(describeExit(101, null, "cargo")).toBe("exit 101 (compile errors, or a panic)");
  expect(describeExit(2, null, "make")).toBe("exit 2 (misuse or failed)");
  expect(describeExit(127, null, "tsc")).toBe("exit 127 (command not found)");
});
