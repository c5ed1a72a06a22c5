import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { CallbackDef } from "../../src/config/types.ts";
import { validateConfig } from "../../src/config/validate.ts";
import { createEngine } from "../../src/engine/engine.ts";
import { tempDir, writeFiles } from "../helpers/tmp.ts";

// Each script appends "start NAME" and "end NAME" to a shared log, around a short sleep that
// makes an overlap all but certain when runs are not ordered; the asserts read the order of
// lines only, never times.
const logged = (name: string, body = ""): string =>
  `echo "start ${name}" >> "$CP_PROJECT_ROOT/.log"; sleep 0.3; ${body} echo "end ${name}" >> "$CP_PROJECT_ROOT/.log"`;

function runIn(callbacks: CallbackDef[], files: string[]) {
  const root = tempDir();
  writeFiles(root, Object.fromEntries(files.map((f) => [f, "x  \n"])));
  const engine = createEngine({ root, config: { callbacks, concurrency: 8 } });
  const done = engine.run({
    root,
    files: files.map((path) => ({ path, kind: "modified" as const })),
    origin: { surface: "api" },
  });
  return { root, done };
}

const lines = (root: string): string[] =>
  readFileSync(join(root, ".log"), "utf8").trim().split("\n");

test("a fixer runs before the readers of its files, and readers see the fixed text", async () => {
  const { root, done } = runIn(
    [
      // the reader comes first in the config: order comes from `fixes`, not position
      {
        name: "lint",
        pattern: "*.py",
        run: logged("lint", `grep -c "  $" "$@" > "$CP_PROJECT_ROOT/.seen" || true;`),
        timeout: 30,
      },
      {
        name: "format",
        pattern: "*.py",
        run: logged("format", `sed -i "s/ *$//" "$@";`),
        timeout: 30,
        fixes: true,
      },
    ],
    ["a.py"],
  );
  const outcome = await done;
  expect(outcome.ok).toBe(true);
  expect(lines(root)).toEqual(["start format", "end format", "start lint", "end lint"]);
  // the reader found no trailing blanks: it read the formatted file
  expect(readFileSync(join(root, ".seen"), "utf8").trim()).toBe("0");
});

test("two fixers of one file never run at once; fixers of other files and readers of other files do not wait", async () => {
  const { root, done } = runIn(
    [
      { name: "fix-a", pattern: "*.ts", run: logged("fix-a"), timeout: 30, fixes: true },
      { name: "fix-b", pattern: "*.ts", run: logged("fix-b"), timeout: 30, fixes: true },
      { name: "other", pattern: "*.md", run: logged("other"), timeout: 30 },
    ],
    ["a.ts", "b.md"],
  );
  expect((await done).ok).toBe(true);
  const log = lines(root);
  const at = (line: string) => log.indexOf(line);
  expect(at("end fix-a")).toBeLessThan(at("start fix-b"));
  expect(log).toHaveLength(6);
});

test("after: a callback waits for the named one whatever its files, even when it failed", async () => {
  const { root, done } = runIn(
    [
      { name: "test", pattern: "*.md", run: logged("test"), timeout: 30, after: ["build"] },
      { name: "build", pattern: "*.ts", run: `${logged("build")}; exit 1`, timeout: 30 },
    ],
    ["a.ts", "b.md"],
  );
  const outcome = await done;
  expect(outcome.runs.find((r) => r.callback === "build")?.status).toBe("failed");
  expect(lines(root)).toEqual(["start build", "end build", "start test", "end test"]);
});

test("after names a callback that exists and forms no circle; both are config errors with key paths", () => {
  const base = { pattern: "*", run: "true", timeout: 1 };
  const unknown = validateConfig({ callbacks: [{ name: "a", ...base, after: ["nope"] }] });
  expect(unknown.ok).toBe(false);
  if (!unknown.ok) expect(unknown.problems[0]?.path).toBe("callbacks[0].after[0]");
  const circle = validateConfig({
    callbacks: [
      { name: "a", ...base, after: ["b"] },
      { name: "b", ...base, after: ["c"] },
      { name: "c", ...base, after: ["a"] },
    ],
  });
  expect(circle.ok).toBe(false);
  if (!circle.ok) {
    expect(circle.problems[0]?.path).toBe("callbacks[0].after");
    expect(circle.problems[0]?.message).toContain("a after b after c after a");
  }
  const fine = validateConfig({
    callbacks: [
      { name: "a", ...base, fixes: true },
      { name: "b", ...base, after: ["a"] },
    ],
    stageFixed: false,
    failOnChange: "always",
    hideUntracked: false,
  });
  expect(fine.ok).toBe(true);
  const bad = validateConfig({ callbacks: [], failOnChange: "sometimes" });
  expect(bad.ok).toBe(false);
  if (!bad.ok) expect(bad.problems[0]?.path).toBe("failOnChange");
});
