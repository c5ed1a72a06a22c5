import { expect, test } from "bun:test";
import { fitAnswer, fitText, REPLY_BUDGET } from "../../../src/ui/agent/fit-reply.ts";

const failure = (name: string, lines: number) =>
  [
    `✗ '${name}' failed on src/${name}.ts: exit 1 (failed)`,
    ...Array.from(
      { length: lines },
      (_, i) => `  src/${name}.ts:${i + 1}:1 error: ${"x".repeat(90)}`,
    ),
    `  run r-${name}, full log: cpilot logs r-${name}`,
  ].join("\n");

const length = (a: { failures: readonly string[]; info: readonly string[] }) =>
  [...a.failures, ...a.info].join("\n\n").length;

test("a reply within the budget is left as it is", () => {
  const answer = {
    failures: [failure("a", 3)],
    info: ["cpilot: files your command changed: a.ts"],
  };
  expect(fitAnswer(answer)).toBe(answer);
});

test("30 failing checks of 25 lines each: every header and log pointer kept, under the budget", () => {
  const names = Array.from({ length: 30 }, (_, i) => `c${i}`);
  const answer = { failures: names.map((n) => failure(n, 25)), info: ["note ".repeat(400)] };
  expect(length(answer)).toBeGreaterThan(REPLY_BUDGET * 2);
  const fitted = fitAnswer(answer);
  expect(length(fitted)).toBeLessThanOrEqual(REPLY_BUDGET);
  for (const n of names) {
    const text = fitted.failures.find((f) => f.startsWith(`✗ '${n}' failed`));
    expect(text).toBeDefined();
    expect(text).toEndWith(`full log: cpilot logs r-${n}`);
    expect(text).toContain("more lines in the full log");
  }
  expect(fitted.info).toEqual(["cpilot: 1 more notes left out to keep this short."]);
});

test("too many failures for even a header each: the first ones shown, the rest counted", () => {
  const answer = { failures: Array.from({ length: 200 }, (_, i) => failure(`c${i}`, 4)), info: [] };
  const fitted = fitAnswer(answer);
  expect(length(fitted)).toBeLessThanOrEqual(REPLY_BUDGET);
  expect(fitted.failures[0]).toStartWith("✗ 'c0' failed");
  expect(fitted.failures.at(-1)).toMatch(/^cpilot: \d+ more failures not shown here/);
});

test("a held stop's text is cut the same way", () => {
  const text = [
    "cpilot: do not stop yet:",
    ...Array.from({ length: 40 }, (_, i) => failure(`s${i}`, 20)),
  ].join("\n\n");
  const fitted = fitText(text);
  expect(fitted.length).toBeLessThanOrEqual(REPLY_BUDGET);
  expect(fitted).toStartWith("cpilot: do not stop yet:");
  expect(fitted).toContain("✗ 's0' failed");
  expect(fitted).toMatch(/more failures not shown here, to keep this short[^\n]*$/);
});
