import { expect, test } from "bun:test";
import fc from "fast-check";
import { agentView, formatDiagnostic } from "../../src/diagnostics/agent-view.ts";
import type { Diagnostic } from "../../src/model/diagnostic.ts";

function d(file: string, line: number, extra: Partial<Diagnostic> = {}): Diagnostic {
  return {
    file,
    line,
    column: 1,
    severity: "error",
    code: "E1",
    message: `problem at ${file}:${line}`,
    tool: "t",
    baseline: "new",
    ...extra,
  };
}

test("the edited files' diagnostics first and in full, their old ones listed and marked, then a few of the others (one left over shown), then the old count", () => {
  const view = agentView(
    [
      d("lib/z.ts", 1),
      d("src/a.ts", 9, { severity: "warning" }),
      d("lib/y.ts", 2),
      d("src/a.ts", 3),
      d("lib/x.ts", 3),
      d("lib/w.ts", 4),
      d("src/a.ts", 1, { baseline: "unchanged", since: "run" }),
      d("lib/v.ts", 1, { baseline: "unchanged", since: "commit" }),
    ],
    { edited: ["src/a.ts"] },
  );
  expect(view).toEqual([
    "src/a.ts:3:1 error E1: problem at src/a.ts:3",
    "src/a.ts:9:1 warning E1: problem at src/a.ts:9",
    "already there before your edit, in the files you edited:",
    "src/a.ts:1:1 error E1: problem at src/a.ts:1",
    "4 new diagnostics in other files:",
    "lib/w.ts:4:1 error E1: problem at lib/w.ts:4",
    "lib/x.ts:3:1 error E1: problem at lib/x.ts:3",
    "lib/y.ts:2:1 error E1: problem at lib/y.ts:2",
    "lib/z.ts:1:1 error E1: problem at lib/z.ts:1",
    "and 1 that was already there before your edit",
  ]);
});

test("when every diagnostic was already there, the first few still say why the run failed", () => {
  const old = [1, 2, 3, 4].map((n) => d("src/a.ts", n, { baseline: "unchanged", since: "run" }));
  expect(agentView(old, { edited: ["src/a.ts"] })).toEqual([
    "all 4 diagnostics were already there before your edit; the first:",
    "src/a.ts:1:1 error E1: problem at src/a.ts:1",
    "src/a.ts:2:1 error E1: problem at src/a.ts:2",
    "src/a.ts:3:1 error E1: problem at src/a.ts:3",
  ]);
});

test("a diagnostic an earlier run of the reply showed is not shown again", () => {
  const seen = new Set<string>();
  const same = [d("src/a.ts", 1), d("src/a.ts", 2)];
  expect(agentView(same, { edited: ["src/a.ts"], seen })).toHaveLength(2);
  expect(agentView(same, { edited: ["src/a.ts"], seen })).toEqual([
    "(the same 2 diagnostics as above)",
  ]);
  expect(agentView([...same, d("src/a.ts", 3)], { edited: ["src/a.ts"], seen })).toEqual([
    "src/a.ts:3:1 error E1: problem at src/a.ts:3",
    "(and 2 diagnostics shown above)",
  ]);
});

test("whole diagnostics within the budget; a huge message is cut with its size, never its location", () => {
  const many = Array.from({ length: 100 }, (_, i) => d("src/a.ts", i + 1));
  const view = agentView(many, { edited: ["src/a.ts"], budget: 500 }) ?? [];
  expect(view.join("\n").length).toBeLessThan(560);
  expect(view.at(-1)).toMatch(/^… and \d+ more in the files you edited \(see the log\)$/);
  for (const line of view.slice(0, -1))
    expect(line).toMatch(/^src\/a\.ts:\d+:1 error E1: problem at src\/a\.ts:\d+$/);
  const huge = agentView([d("src/a.ts", 7, { message: "x".repeat(5000) })], {
    edited: ["src/a.ts"],
  });
  expect(huge?.[0]).toStartWith("src/a.ts:7:1 error E1: xxx");
  expect(huge?.[0]).toEndWith("… (4023 more chars)");
});

test("a whole-file diagnostic (a formatter's) and one without a file read naturally", () => {
  expect(
    agentView(
      [
        d("src/a.py", 0, { column: 0, code: "format", message: "would be reformatted by black" }),
        d("", 0, { column: 0, code: "TS5023", message: "Unknown compiler option 'x'." }),
      ],
      { edited: ["src/a.py"] },
    ),
  ).toEqual([
    "src/a.py error format: would be reformatted by black",
    "1 new diagnostic in other files:",
    "error TS5023: Unknown compiler option 'x'.",
  ]);
});

test("any number of diagnostics show errors first, then by path in code-unit order, then line; ties in order", () => {
  const RANK = { error: 0, warning: 1, info: 2 } as const;
  const one = fc.record({
    file: fc.constantFrom("src/a.ts", "src/B.ts", "src/é.ts", "lib/z.ts", "Z.ts", ""),
    line: fc.oneof(
      { weight: 20, arbitrary: fc.nat(50) },
      { weight: 1, arbitrary: fc.constantFrom(0x1fffff, 0x200000, 9_999_999, -1, 2.5) },
    ),
    severity: fc.constantFrom("error", "warning", "info") as fc.Arbitrary<Diagnostic["severity"]>,
    n: fc.nat(1000),
  });
  fc.assert(
    fc.property(fc.array(one, { maxLength: 300 }), (specs) => {
      const list = specs.map((s, i) =>
        d(s.file, s.line, { severity: s.severity, message: `m${i}`, code: `c${s.n}` }),
      );
      const expected = list
        .slice()
        .sort(
          (a, b) =>
            RANK[a.severity] - RANK[b.severity] ||
            (a.file === b.file ? 0 : a.file < b.file ? -1 : 1) ||
            a.line - b.line,
        )
        .map(formatDiagnostic);
      const files = [...new Set(list.map((x) => x.file))];
      const view = agentView(list, { edited: files, budget: 1e9 }) ?? [];
      expect(view).toEqual(expected);
    }),
    { numRuns: 200 },
  );
});

test("what is left out of a few names its files, and one left over is shown, not counted", () => {
  // unjs/citty: a changed signature broke 3 callers in src/usage.ts and 2 in
  // test/utils.test.ts; the agent was told "… and 2 more in such files", never where
  const unverified = (file: string, line: number) =>
    d(file, line, { baseline: "unchanged", since: "unverified" });
  const five = [
    unverified("src/usage.ts", 114),
    unverified("src/usage.ts", 120),
    unverified("src/usage.ts", 126),
    unverified("test/utils.test.ts", 26),
    unverified("test/utils.test.ts", 36),
  ];
  const view = agentView(five, { edited: ["src/_utils.ts"] }) ?? [];
  expect(view.at(-1)).toBe("… and 2 more in such files: test/utils.test.ts");
  const four = agentView(five.slice(0, 4), { edited: ["src/_utils.ts"] }) ?? [];
  expect(four.at(-1)).toBe("test/utils.test.ts:26:1 error E1: problem at test/utils.test.ts:26");
  const spread = [d("src/a.ts", 1), ...[1, 2, 3, 4, 5, 6, 7].map((n) => d(`lib/f${n}.ts`, n))];
  expect(agentView(spread, { edited: ["src/a.ts"] })?.at(-1)).toBe(
    "… and 4 more in other files: lib/f4.ts, lib/f5.ts, lib/f6.ts and 1 other",
  );
});

test("unverified diagnostics told before say that they no longer block, and what to do about them", () => {
  // unjs/citty: after the agent fixed 3 of a changed signature's 5 callers, the other 2 came
  // back with no word on whether to act (no "fix these", no "does not block")
  const told = (line: number) =>
    d("test/utils.test.ts", line, { baseline: "unchanged", since: "unverified-told" });
  const view = agentView([told(26), told(36)], { edited: ["src/usage.ts"] }) ?? [];
  expect(view.at(-1)).toBe("(told before, so they no longer block: fix those your edits brought)");
  const first = agentView(
    [d("test/utils.test.ts", 26, { baseline: "unchanged", since: "unverified" })],
    { edited: ["src/usage.ts"] },
  );
  expect(first?.join("\n")).not.toContain("no longer block");
});

test("new diagnostics in other files keep their heading when unverified ones follow, so the two read apart", () => {
  // unjs/citty: a caller's error naming the changed code stood bare under "failed on
  // src/_utils.ts", then "4 diagnostics in files you did not edit that cpilot had not read before"
  const view = agentView(
    [
      d("test/utils.test.ts", 26),
      d("src/usage.ts", 114, { baseline: "unchanged", since: "unverified" }),
    ],
    { edited: ["src/_utils.ts"] },
  );
  expect(view?.slice(0, 2)).toEqual([
    "1 new diagnostic in other files:",
    "test/utils.test.ts:26:1 error E1: problem at test/utils.test.ts:26",
  ]);
  expect(agentView([d("lib/a.ts", 1)], { edited: ["src/a.ts"] })).toEqual([
    "lib/a.ts:1:1 error E1: problem at lib/a.ts:1",
  ]);
});
