import { describe, expect, test } from "bun:test";
import { buildCallback } from "../../src/add/build.ts";
import { gatherContext } from "../../src/add/context.ts";
import { resolveProvider } from "../../src/add/provider.ts";
import { buildFromRules } from "../../src/add/rules/index.ts";
import { validateConfig } from "../../src/config/validate.ts";
import { CpilotError } from "../../src/util/errors.ts";
import { tempDir, writeFiles } from "../helpers/tmp.ts";

const NPM = (...rest: string[]) => ["npx", "--no-install", ...rest];

/** Phrase → the fields the rules must produce (a subset of the callback). */
const TABLE: [string, Record<string, unknown>][] = [
  [
    "run cargo check after I edit rust files and show me the errors",
    {
      name: "cargo-check",
      pattern: ["*.rs"],
      run: "cargo check --quiet --message-format short",
      blocking: true,
      timeout: 300,
      overlap: "replace",
    },
  ],
  ["run clippy on rust files in the background", { name: "cargo-clippy", blocking: false }],
  ["cargo fmt when I touch .rs files", { name: "cargo-fmt", run: "cargo fmt", pattern: ["*.rs"] }],
  ["cargo test for up to 5 min after rust changes", { run: "cargo test --quiet", timeout: 300 }],
  [
    "typecheck typescript files for up to 2 minutes",
    {
      name: "tsc",
      run: "npx --no-install tsc --noEmit -p .",
      pattern: ["*.ts", "*.tsx"],
      timeout: 120,
    },
  ],
  ["run eslint and fix what it can on ts files", { run: NPM("eslint", "--fix", "{files}") }],
  [
    "run prettier on markdown",
    { pattern: ["*.md"], run: NPM("prettier", "--write", "--ignore-unknown", "{files}") },
  ],
  ["biome on ts files, silent when it passes", { name: "biome", successMessage: "silent" }],
  [
    "run ruff with --fix on *.py under src/",
    { run: ["ruff", "check", "--fix", "{files}"], pattern: ["src/**/*.py"] },
  ],
  [
    "format python files with ruff after each file, in the background",
    { name: "ruff-format", run: ["ruff", "format", "{file}"], per: "file", blocking: false },
  ],
  [
    "format python files with black after each file",
    { run: ["black", "--quiet", "{file}"], per: "file" },
  ],
  [
    "mypy on python files in the src folder",
    { run: ["mypy", "{files}"], pattern: ["src/**/*.py"] },
  ],
  [
    "run pytest in the background with a 10 minute timeout",
    { run: "pytest -q", blocking: false, timeout: 600 },
  ],
  ["run go vet after I edit go files", { run: "go vet ./...", pattern: ["*.go"] }],
  ["gofmt go files one file at a time", { run: ["gofmt", "-w", "{file}"], per: "file" }],
  [
    "go test in the background",
    { run: "go test ./...", blocking: false, pattern: ["*.go", "go.mod"] },
  ],
  ["run shellcheck on scripts/*.sh", { run: ["shellcheck", "{files}"], pattern: ["scripts/*.sh"] }],
  [
    "hadolint my dockerfiles",
    { run: ["hadolint", "{files}"], pattern: ["Dockerfile", "Dockerfile.*", "*.Dockerfile"] },
  ],
  [
    "terraform validate when .tf files change",
    { run: "terraform validate -no-color", pattern: ["*.tf"] },
  ],
  [
    "run `make lint` after I edit C files",
    { name: "make-lint", run: "make lint", pattern: ["*.c", "*.h"] },
  ],
  [
    'run make test on C files, say "tests ok" when it passes',
    { run: "make test", successMessage: "tests ok", pattern: ["*.c", "*.h"] },
  ],
  [
    "npm run lint when javascript changes",
    { name: "npm-lint", run: "npm run lint", pattern: ["*.js", "*.jsx", "*.mjs", "*.cjs"] },
  ],
  [
    "run ./scripts/check.sh after any edit",
    { name: "check", run: "./scripts/check.sh", pattern: ["*"] },
  ],
  ["lint python files", { name: "ruff", run: ["ruff", "check", "{files}"] }],
  ["format rust files", { name: "rustfmt", run: ["rustfmt", "--edition", "2021", "{files}"] }],
  [
    "cargo fmt and cargo clippy on rust files",
    {
      run: "cargo fmt && cargo clippy --quiet --message-format short -- -D warnings",
      timeout: 300,
    },
  ],
  ["run tsc, cancel the previous run if it is still running", { overlap: "replace" }],
  [
    "rustfmt each file, say “formatted” when it succeeds",
    { per: "file", successMessage: "formatted" },
  ],
  ["run eslint on files in packages/api/", { pattern: ["/packages/api/"] }],
  // Scope words: "in src" is the src folder (a usual one, or one the project has).
  ["run eslint on typescript files in src", { pattern: ["src/**/*.ts", "src/**/*.tsx"] }],
  ["run cargo clippy in the background", { blocking: false, pattern: ["*.rs", "Cargo.toml"] }],
  [
    "run vitest when tests change",
    {
      pattern: ["*.test.*", "*.spec.*", "*_test.*", "test_*.py", "/test/", "/tests/", "__tests__/"],
    },
  ],
  // Lint tools fail on the warnings the request asks about.
  [
    "run cargo clippy after rust edits",
    { run: "cargo clippy --quiet --message-format short -- -D warnings" },
  ],
  [
    "run eslint on ts files and fail on warnings",
    { run: ["npx", "--no-install", "eslint", "--max-warnings", "0", "{files}"] },
  ],
];

describe("the phrase rules", () => {
  test.each(TABLE)("%s", (words, expected) => {
    const result = buildFromRules(words);
    if (!result.ok) throw new Error(`${result.problem}\n${result.hint}`);
    expect(result.callback).toMatchObject(expected);
    expect(result.callback.description).toBe(words);
    // Every result is a valid config callback.
    expect(validateConfig({ callbacks: [result.callback] })).toMatchObject({ ok: true });
  });

  test("the same words always give the same callback", () => {
    for (const [words] of TABLE) expect(buildFromRules(words)).toEqual(buildFromRules(words));
  });

  test("what was assumed is said: files, timeout, blocking", () => {
    const result = buildFromRules("run cargo check after I edit rust files");
    if (!result.ok) throw new Error(result.problem);
    expect(result.notes.join("\n")).toMatch(/files: \*\.rs \(from "rust files"\)/);
    expect(result.notes.join("\n")).toMatch(/timeout 300 s/);
    expect(result.notes.join("\n")).toMatch(/in the background/);
  });

  test("the package manager and a default language come from the project's files", () => {
    const project = { toolchainFiles: ["package.json", "pnpm-lock.yaml", "tsconfig.json"] };
    const script = buildFromRules("run the lint script on ts files", project);
    expect(script).toMatchObject({ ok: true, callback: { run: "pnpm run lint" } });
    const lint = buildFromRules("lint on every edit", project);
    expect(lint).toMatchObject({ ok: true, callback: { name: "eslint" } });
  });

  test.each([
    [
      "flibber the wozzle",
      'no command recognised in "flibber the wozzle"',
      "say which command to run",
    ],
    ["", "the request is empty", "say what to run"],
    ["run make after I edit", "no files recognised", "say which files"],
    ["format cobol files", 'cannot tell which files "cobol files" means', "by extension or glob"],
    ["lint everything please", '"lint" needs a tool', "name the tool or the files"],
  ])("%j is not guessed: it says what it could not understand", (words, problem, hint) => {
    const result = buildFromRules(words);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problem).toContain(problem);
    expect(result.hint).toContain(hint);
  });
});

describe("offline: no key set", () => {
  const root = tempDir("cpilot-add-offline-");
  const provider = resolveProvider({});

  test("no key means no model, and says so", () => {
    expect(provider).toEqual({
      none: "no API key: set ANTHROPIC_API_KEY, OPENAI_API_KEY or CPILOT_MODEL_API_KEY",
    });
  });

  test("the rules build it, labelled as built without a model", async () => {
    const built = await buildCallback({
      words: "run cargo check after I edit rust files",
      root,
      context: gatherContext(root, []),
      provider,
    });
    expect(built.via).toEqual({ kind: "rules", why: (provider as { none: string }).none });
    expect(built.callback.name).toBe("cargo-check");
    expect(built.notes.length).toBeGreaterThan(0);
  });

  test("gibberish is a CpilotError naming what was not understood", async () => {
    const err = await buildCallback({
      words: "flibber the wozzle",
      root,
      context: gatherContext(root, []),
      provider,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CpilotError);
    expect((err as CpilotError).message).toContain('no command recognised in "flibber the wozzle"');
    expect((err as CpilotError).hint).toContain("run `make lint` after I edit C files");
  });
});

test("the rules fit a known tool to the project: its node_modules/.bin, its Rust edition, its folders", () => {
  const root = tempDir("cpilot-rules-fit-");
  writeFiles(root, {
    "node_modules/.bin/eslint": "#!/bin/sh\n",
    "Cargo.toml": '[package]\nname = "x"\nedition = "2024"\n',
  });
  const eslint = buildFromRules("run eslint on ts files", { root });
  expect(eslint.ok && eslint.callback.run).toEqual(["node_modules/.bin/eslint", "{files}"]);
  const rustfmt = buildFromRules("format rust files", { root });
  expect(rustfmt.ok && rustfmt.callback.run).toEqual(["rustfmt", "--edition", "2024", "{files}"]);
  // "in web" is a folder only when the project has one by that name.
  const web = buildFromRules("run eslint on ts files in web", { topLevel: ["web/"] });
  expect(web.ok && web.callback.pattern).toEqual(["web/**/*.ts", "web/**/*.tsx"]);
  const notFolder = buildFromRules("run eslint on ts files in web", { topLevel: ["src/"] });
  expect(notFolder.ok && notFolder.callback.pattern).toEqual(["*.ts", "*.tsx"]);
});
