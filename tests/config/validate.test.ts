import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfigFile, loadProjectConfig } from "../../src/config/load.ts";
import { validateConfig } from "../../src/config/validate.ts";
import { CpilotError } from "../../src/util/errors.ts";
import { tempDir, writeFiles } from "../helpers/tmp.ts";

function problems(value: unknown): string[] {
  const result = validateConfig(value);
  if (result.ok) throw new Error("expected problems");
  return result.problems.map((p) => `${p.path}: ${p.message}`);
}

test("every problem is reported at once, each with its key path, value and expectation", () => {
  const found = problems({
    callbacks: [
      { name: "Bad Name", pattern: "*.ts", run: "x", timeout: 5 },
      { name: "ok", pattern: "src/[a-", run: "x", timeout: "ten" },
      { name: "ok2", pattern: "*.ts", run: 42, timeout: 5, colour: "red" },
      { name: "ok3", pattern: [], run: "x", per: "sometimes", timeout: 5 },
    ],
    concurency: 3,
  });
  expect(found).toContainEqual(
    expect.stringMatching(/^callbacks\[0\]\.name: got "Bad Name", expected a slug/),
  );
  expect(found).toContainEqual(
    expect.stringMatching(/^callbacks\[1\]\.timeout: got "ten", expected number$/),
  );
  expect(found).toContainEqual(
    expect.stringMatching(
      /^callbacks\[2\]\.run: got 42, expected a string, a list of strings, or a function/,
    ),
  );
  expect(found).toContainEqual('callbacks[2]: unknown key "colour"');
  expect(found).toContainEqual(
    expect.stringMatching(/^callbacks\[3\]\.pattern: got \[\], expected at least one pattern/),
  );
  expect(found).toContainEqual(
    expect.stringMatching(/^callbacks\[3\]\.per: got "sometimes", expected one of "batch"\|"file"/),
  );
  expect(found).toContainEqual(
    '(top level): unknown key "concurency" (did you mean "concurrency"?)',
  );
  expect(found.length).toBeGreaterThanOrEqual(7);
});

test("cross-field rules: duplicate names, blocking without timeout, bad globs, cwd outside the root", () => {
  const found = problems({
    callbacks: [
      { name: "a", pattern: "*.ts", run: "x", timeout: 5 },
      { name: "a", pattern: "*.ts", run: "x" },
      { name: "b", pattern: ["*.ts", "src/[z-"], run: "x", blocking: false, cwd: "../elsewhere" },
    ],
  });
  expect(found).toContain('callbacks[1].name: duplicate name "a", already used by callbacks[0]');
  expect(found).toContain(
    "callbacks[1].timeout: a blocking callback needs a timeout in seconds (or set blocking: false)",
  );
  expect(found.some((p) => p.startsWith("callbacks[2].pattern:") && p.includes("src/[z-"))).toBe(
    true,
  );
  expect(found).toContain(
    'callbacks[2].cwd: got "../elsewhere", expected a folder inside the project root',
  );
});

test("a valid config passes", () => {
  const result = validateConfig({
    callbacks: [{ name: "t", pattern: "*.ts", run: ["tsc"], timeout: 3, overlap: "replace" }],
  });
  expect(result.ok).toBe(true);
});

async function loadError(dir: string, name: string, text: string): Promise<CpilotError> {
  writeFileSync(join(dir, name), text);
  try {
    await loadConfigFile(join(dir, name));
  } catch (err) {
    expect(err).toBeInstanceOf(CpilotError);
    return err as CpilotError;
  }
  throw new Error("expected the config to fail");
}

test("a config that throws on import, or has no default export, is a clear error", async () => {
  const dir = tempDir();
  const thrown = await loadError(
    dir,
    "callbacks.config.ts",
    `throw new Error("boom from config");\nexport default {};\n`,
  );
  expect(thrown.message).toStartWith(
    'Cannot load config "callbacks.config.ts": boom from config\n',
  );
  // Where it threw, with the line; never "run it with bun" (binary users have no bun).
  expect(thrown.message).toContain("callbacks.config.ts:1:");
  expect(thrown.message).toContain('> 1 | throw new Error("boom from config");');
  expect(thrown.hint).not.toContain("bun");
  const noDefault = await loadError(dir, "callbacks.config.mjs", "export const x = 1;\n");
  expect(noDefault.message).toContain("it has no default export");
});

test("JSON and YAML configs load; their syntax errors are clear", async () => {
  const dir = tempDir();
  writeFiles(dir, {
    "y/callbacks.config.yaml":
      "callbacks:\n  - name: lint\n    pattern: '*.py'\n    run: ruff check\n    timeout: 30\n",
  });
  const yaml = await loadProjectConfig(join(dir, "y"));
  expect(yaml.callbacks[0]?.name).toBe("lint");
  const badJson = await loadError(
    dir,
    "callbacks.config.json",
    '{\n  "callbacks": [\n    {"name": "a" "pattern": "*"}\n  ]\n}\n',
  );
  expect(badJson.message).toMatch(
    /^Cannot parse config "callbacks.config.json": expected "," or "}"/,
  );
  expect(badJson.message).toContain(`${join(dir, "callbacks.config.json")}:3:18`);
  expect(badJson.message).toContain(
    '> 3 |     {"name": "a" "pattern": "*"}\n    |                  ^',
  );
  const badYaml = await loadError(dir, "callbacks.config.yml", "callbacks:\n  - name: [unclosed\n");
  expect(badYaml.message).toMatch(/^Cannot parse config "callbacks.config.yml": /);
  expect(badYaml.message).toMatch(/callbacks\.config\.yml:\d+:\d+\n/);
  const badTs = await loadError(
    dir,
    "callbacks.config.ts",
    'export default {\n  callbacks: [\n    { name: "a" pattern: "*" },\n  ],\n};\n',
  );
  expect(badTs.message).toContain(`${join(dir, "callbacks.config.ts")}:3:`);
  expect(badTs.message).toContain('> 3 |     { name: "a" pattern: "*" },');
});

test("the config is found by walking up from a subfolder, and a missing one says how to start", async () => {
  const dir = tempDir();
  writeFiles(dir, {
    "callbacks.config.ts": `import { defineConfig } from "cpilot";\nexport default defineConfig({ callbacks: [{ name: "t", pattern: "*.ts", run: "true", timeout: 1 }] });\n`,
    "deep/er/x.txt": "",
  });
  const config = await loadProjectConfig(join(dir, "deep", "er"));
  expect(config.root).toBe(dir);
  expect(config.callbacks.map((c) => c.name)).toEqual(["t"]);
  const empty = tempDir();
  await expect(loadProjectConfig(empty)).rejects.toThrow(/Cannot find callbacks\.config\.ts/);
});

test("an invalid config's error lists each problem with the file name", async () => {
  const dir = tempDir();
  const err = await loadError(
    dir,
    "callbacks.config.json",
    JSON.stringify({
      callbacks: [
        { name: "x", pattern: "*.ts", run: "y" },
        { name: "x", pattern: "*.ts", run: "y", timeout: 1 },
      ],
    }),
  );
  expect(err.message).toContain("2 problems");
  expect(err.message).toContain(
    "callbacks.config.json: callbacks[0].timeout: a blocking callback needs a timeout",
  );
  expect(err.message).toContain('callbacks.config.json: callbacks[1].name: duplicate name "x"');
});

test("argv placeholders must fit how the callback runs", () => {
  const found = problems({
    callbacks: [
      { name: "a", pattern: "*.ts", run: ["eslint", "{file}"], timeout: 5 },
      { name: "b", pattern: "*.ts", run: ["eslint", "--x={files}"], timeout: 5 },
    ],
  });
  expect(found).toContain(
    'callbacks[0].run: uses {file} but runs once per batch: use {files}, or set per: "file"',
  );
  expect(found).toContain(
    "callbacks[1].run: {files} must be an argument of its own: it expands to one argument per file",
  );
});

test("a syntax error in a file the config imports is shown where it is, in that file", async () => {
  // unjs/citty, an agent session: tools/checks.ts broke, and the error pointed at
  // callbacks.config.ts:1:117, a column past the end of its import line
  const dir = tempDir();
  writeFiles(dir, {
    "tools/checks.ts": 'export const lint = {\n  name: "lint",\n  timeout: 5 ;\n',
  });
  const err = await loadError(
    dir,
    "callbacks.config.ts",
    'import { lint } from "./tools/checks.ts";\nexport default { callbacks: [lint] };\n',
  );
  expect(err.message).toStartWith('Cannot load config "callbacks.config.ts": Expected "}"');
  expect(err.message).toContain(`at ${join(dir, "tools/checks.ts")}:3:14`);
  expect(err.message).toContain("> 3 |   timeout: 5 ;");
  expect(err.hint).toContain("tools/checks.ts");
});

test("inputs: a glob or a list of them, each checked like a pattern; [] is allowed", () => {
  const cb = { name: "ok", pattern: "*.ts", run: "x {files}", timeout: 5 };
  expect(problems({ callbacks: [{ ...cb, inputs: ["rules/[a-", "ok.txt"] }] })).toEqual([
    'callbacks[0].inputs: Cannot use input "rules/[a-": it has an unclosed character class "[a-" (close it with "]", or write "\\[" for a literal bracket)',
  ]);
  expect(problems({ callbacks: [{ ...cb, inputs: 3 }] })).toEqual([
    'callbacks[0].inputs: got 3, expected a glob or a list of globs, such as ["rules.txt"]',
  ]);
  for (const inputs of [[], "banned.txt", ["banned.txt", "rules/**"]])
    expect(validateConfig({ callbacks: [{ ...cb, inputs }] }).ok).toBe(true);
});
