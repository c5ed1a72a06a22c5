/** Rules the test files keep so that one file cannot break the others in a shared run. */
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? testFiles(join(dir, e.name))
      : e.name.endsWith(".ts")
        ? [join(dir, e.name)]
        : [],
  );
}

test("only tests/setup.ts removes the temp folders: a test file doing it took the PATH folder holding cpilot from every file after it", () => {
  const root = import.meta.dir;
  const callers = testFiles(root)
    .filter((f) =>
      /\bremoveTempDirs\s*\(|afterEach\(\s*removeTempDirs/.test(readFileSync(f, "utf8")),
    )
    .map((f) => relative(root, f))
    .filter((f) => f !== "setup.ts" && f !== join("helpers", "tmp.ts"));
  expect(callers).toEqual([]);
});

test("a test file that sets HOME puts it back: a login shell in a later file found no cargo", () => {
  const root = import.meta.dir;
  const unrestored = testFiles(root)
    .filter((f) => {
      const text = readFileSync(f, "utf8");
      return /process\.env\.HOME\s*=(?!=)/.test(text) && !/afterAll\(/.test(text);
    })
    .map((f) => relative(root, f));
  expect(unrestored).toEqual([]);
});
