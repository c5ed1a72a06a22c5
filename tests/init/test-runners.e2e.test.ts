import { expect, test } from "bun:test";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cpilot } from "../helpers/binary.ts";
import { committedRepo } from "../helpers/tmp.ts";

const REPO_BIN = join(import.meta.dir, "..", "..", "node_modules", ".bin");

/**
 * A project whose test script is `script`, with one passing test: init proposes that
 * command, and `check --all` runs it for real and tells a broken edit.
 */
function initRunner(script: string, testFile: string, testText: string): string {
  const root = committedRepo("cpilot-init-runner-", {
    "package.json": JSON.stringify({
      name: "x",
      type: "module",
      private: true,
      scripts: { lint: "echo lint", test: script },
      ...(script.startsWith("bun") ? { devDependencies: { bun: "1" } } : {}),
    }),
    ".gitignore": "node_modules/\n",
    "lib.js": "export const add = (a, b) => a + b;\n",
    [testFile]: testText,
  });
  // bun as a devDependency, installed; node from the PATH
  mkdirSync(join(root, "node_modules", ".bin"), { recursive: true });
  symlinkSync(join(REPO_BIN, "bun"), join(root, "node_modules", ".bin", "bun"));
  expect(cpilot(["init", "--yes", "--format", "json"], { cwd: root }).code).toBe(0);
  return root;
}

const callbacks = (root: string) =>
  (
    JSON.parse(readFileSync(join(root, "callbacks.config.json"), "utf8")) as {
      callbacks: { name: string; run: string; blocking?: boolean }[];
    }
  ).callbacks.map((c) => `${c.name}: ${c.run}${c.blocking === false ? " (background)" : ""}`);

for (const { script, name, file, text } of [
  {
    script: "node --test",
    name: "node-test",
    file: "test/add.test.js",
    text: 'import test from "node:test";\nimport assert from "node:assert";\nimport { add } from "../lib.js";\ntest("add", () => assert.equal(add(1, 2), 3));\n',
  },
  {
    script: "bun test",
    name: "bun-test",
    file: "add.test.js",
    text: 'import { expect, test } from "bun:test";\nimport { add } from "./lib.js";\ntest("add", () => expect(add(1, 2)).toBe(3));\n',
  },
]) {
  test(`a project whose test script runs \`${script}\`: init proposes it in the background, and check --all tells a broken edit`, () => {
    const root = initRunner(script, file, text);
    const run = script.startsWith("bun") ? "node_modules/.bin/bun test" : script;
    expect(callbacks(root)).toEqual([`${name}: ${run} (background)`]);
    const clean = cpilot(["check", "--all"], { cwd: root });
    expect(clean.stderr).toContain(`✓ ${name}`);
    writeFileSync(join(root, "lib.js"), "export const add = (a, b) => a - b;\n");
    const broken = cpilot(["check", "lib.js"], { cwd: root });
    expect(broken.stderr).toContain(`✗ ${name}`);
  }, 120_000);
}
