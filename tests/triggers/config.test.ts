import { expect, test } from "bun:test";
import { loadProjectConfig } from "../../src/config/load.ts";
import { catastrophicBacktracking } from "../../src/config/regex-safety.ts";
import { validateConfig } from "../../src/config/validate.ts";
import { createEngine } from "../../src/engine/engine.ts";
import { tempDir, writeFiles } from "../helpers/tmp.ts";

const CATASTROPHIC = [
  "(a+)+",
  "(a*)*",
  "(.*)*",
  "(a|a)*",
  "(a|b|a)+",
  "(a|aa)+",
  "(\\w|\\d)+",
  "((ab)+)+",
  "(a+b*)+",
  "(a+a)+",
  "(\\s*\\w*)+",
  "([a-z]+)*",
  "(x+x+)+y",
  "(?:a+)+",
  "(a+){2,}",
  "^(\\d+)*$",
  "(\\w+\\s?)+$",
  "^(a?){25}a{25}$",
  "(.*a){20}",
  "(?=(a+)+)b",
];

const SAFE = [
  "error TS\\d+",
  "^\\s*at .+:\\d+:\\d+$",
  "(foo|bar)+",
  "(\\d+\\.)+\\d+",
  "(ab+)+",
  "(\\s+\\w+)+",
  "(a|ab)*",
  "\\berror\\b",
  "^(?:warning|error):",
  "[a-z]+(?:-[a-z]+)*",
  "(\\r?\\n)+",
  "\\[(\\d+)/(\\d+)\\]",
  "(?<name>x+)y",
  "[^\\]]+",
  "a{2,5}",
  "EADDRINUSE|listening on",
];

test.each(CATASTROPHIC)("catastrophic: %s", (source) => {
  expect(catastrophicBacktracking(source)).not.toBeNull();
});

test.each(SAFE)("safe: %s", (source) => {
  expect(catastrophicBacktracking(source)).toBeNull();
});

function problems(callback: Record<string, unknown>, extra: Record<string, unknown>[] = []) {
  const result = validateConfig({
    callbacks: [{ name: "x", pattern: "*.ts", run: "true", timeout: 10, ...callback }, ...extra],
  });
  return result.ok ? [] : result.problems;
}

test("invalid and catastrophic regexes are rejected with their key path, all at once", () => {
  const found = problems({
    onOutput: [
      { match: "(unclosed", action: "notify" },
      { match: "ok", action: "notify" },
      { match: "(a+)+$", action: "stop" },
    ],
  });
  expect(found.map((p) => p.path)).toEqual([
    "callbacks[0].onOutput[0].match",
    "callbacks[0].onOutput[2].match",
  ]);
  expect(found[0]?.message).toContain("invalid regex /(unclosed/");
  expect(found[1]?.message).toContain("can backtrack catastrophically");
  // A single rule is reported where it is written, without [0].
  const single = problems({ onOutput: { match: "(.*)*", action: "notify" } });
  expect(single.map((p) => p.path)).toEqual(["callbacks[0].onOutput.match"]);
  // A RegExp in a TypeScript config is checked the same way.
  expect(problems({ onOutput: { match: /(\w|\d)+/, action: "notify" } })[0]?.path).toBe(
    "callbacks[0].onOutput.match",
  );
});

test("hook shapes and cross references are checked with key paths", () => {
  const found = problems(
    {
      onOutput: { match: "x", action: "notify", delay: -1 },
      onExit: [
        { when: "failure", action: "run" },
        { when: "sometimes", action: "notify" },
        { action: "run", callback: "nope" },
        { action: "explode" },
      ],
      onTimeout: { after: 30, action: "stop", message: "hi" },
      persist: true,
    },
    [{ name: "fix", pattern: "*.ts", run: "true", timeout: 5 }],
  );
  const byPath = Object.fromEntries(found.map((p) => [p.path, p.message]));
  expect(byPath["callbacks[0].onOutput.delay"]).toContain("expected seconds >= 0");
  expect(byPath["callbacks[0].onExit[1].when"]).toContain('"sometimes"');
  expect(byPath["callbacks[0].onExit[3].action"]).toContain(
    'expected "stop", "notify", "run" or a function',
  );
  // Cross checks run even though the shapes above are wrong.
  expect(byPath["callbacks[0].onExit[0].callback"]).toContain('action "run" needs');
  expect(byPath["callbacks[0].onExit[2].callback"]).toContain(
    'got "nope", expected the name of a callback (x, fix)',
  );
  expect(byPath["callbacks[0].onTimeout.after"]).toContain("killed at its timeout of 10 s");
  expect(byPath["callbacks[0].onTimeout.message"]).toContain('only used with action "notify"');
  expect(byPath["callbacks[0].persist"]).toContain("set blocking: false");
});

test("a valid trigger config passes and resolves with defaults", () => {
  const result = validateConfig({
    hookLimits: { maxDepth: 2 },
    callbacks: [
      {
        name: "tsc",
        pattern: "*.ts",
        run: "tsc",
        timeout: 60,
        onOutput: { match: "error TS\\d+", action: "notify" },
        onExit: { when: "failure", action: "run", callback: "hints" },
      },
      {
        name: "hints",
        pattern: "*.md",
        run: "true",
        timeout: 5,
        onTimeout: { after: 1, action: "stop" },
      },
    ],
  });
  expect(result.ok).toBe(true);
  if (!result.ok) return;
  const engine = createEngine({ root: tempDir(), config: result.config });
  const triggers = engine.config.callbacks[0]?.triggers;
  expect(triggers?.onOutput[0]?.delayMs).toBe(2000);
  expect(triggers?.onOutput[0]?.maxFires).toBe(1);
  expect(triggers?.limits).toEqual({ maxDepth: 2, maxConcurrent: 3, sessionBudget: 50 });
  expect(triggers?.lookup("hints")?.name).toBe("hints");
});

const notifyOnExit = {
  name: "tsc",
  pattern: "*.ts",
  run: "tsc",
  timeout: 60,
  onExit: { action: "notify" },
};

test("triggerLimits sets the trigger limits; hookLimits, its old name, still does", () => {
  for (const key of ["triggerLimits", "hookLimits"]) {
    const result = validateConfig({ [key]: { sessionBudget: 7 }, callbacks: [notifyOnExit] });
    expect(result.ok).toBe(true);
    if (!result.ok) continue;
    const engine = createEngine({ root: tempDir(), config: result.config });
    expect(engine.config.callbacks[0]?.triggers?.limits.sessionBudget).toBe(7);
  }
});

test("a config that sets both triggerLimits and hookLimits is refused, not half read", () => {
  const result = validateConfig({
    triggerLimits: { maxDepth: 1 },
    hookLimits: { maxDepth: 5 },
    callbacks: [notifyOnExit],
  });
  expect(result.ok).toBe(false);
  if (result.ok) return;
  expect(result.problems).toEqual([
    {
      path: "hookLimits",
      message: "is the old name of triggerLimits, which is set too: keep triggerLimits only",
    },
  ]);
});

test("a config given in code is checked too: createEngine refuses a catastrophic regex", () => {
  expect(() =>
    createEngine({
      root: tempDir(),
      config: {
        callbacks: [
          {
            name: "x",
            pattern: "*",
            run: "true",
            timeout: 1,
            onOutput: { match: "(a+)+", action: "notify" },
          },
        ],
      },
    }),
  ).toThrow('Cannot use onOutput.match of "x"');
});

test("loading a config file reports bad hooks with the file and key path", async () => {
  const root = tempDir();
  writeFiles(root, {
    "callbacks.config.json": JSON.stringify({
      callbacks: [
        {
          name: "x",
          pattern: "*",
          run: "true",
          timeout: 5,
          onOutput: { match: "([a-z]+)*$", action: "notify" },
        },
      ],
    }),
  });
  await expect(loadProjectConfig(root)).rejects.toThrow(
    "callbacks.config.json: callbacks[0].onOutput.match: regex /([a-z]+)*$/ can backtrack catastrophically",
  );
});
