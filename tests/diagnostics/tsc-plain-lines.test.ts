/**
 * tsc's plain lines are read on a short path (no call per line but the regex's, for dense
 * outputs); every line must come out as the general reading makes it: the regex's groups,
 * digits as numbers (0 when too long to be one), the severity word as a Severity, a message
 * chain joined when indented lines follow.
 */
import { expect, test } from "bun:test";
import { parseDiagnostics } from "../../src/diagnostics/parse-output.ts";
import { severityOf } from "../../src/diagnostics/severity.ts";

const PLAIN = /^(.+?)\((\d+),(\d+)\): (error|warning|message) (TS\d+): (.*)$/;
const num = (v: string) => {
  const n = Number.parseInt(v, 10);
  return Number.isFinite(n) && n >= 0 ? n : 0;
};

/** What the line means, read with the regex alone (files are inside the root: /p). */
function expected(line: string) {
  const m = PLAIN.exec(line) as RegExpExecArray;
  return {
    file: m[1],
    line: num(m[2] as string),
    column: num(m[3] as string),
    severity: severityOf(m[4]),
    code: m[5],
    message: m[6],
    tool: "tsc",
  };
}

test("every plain tsc line reads as the regex and the general rules read it", () => {
  const files = ["a.ts", "src/b(1).ts", "x (copy).ts", "deep/dir/c.tsx"];
  const words = ["error", "warning", "message"];
  const numbers = ["1", "007", "2097152", "9".repeat(17), "9".repeat(400)];
  const lines: string[] = [];
  let k = 0;
  for (const file of files)
    for (const word of words)
      for (const n of numbers)
        lines.push(`${file}(${n},${numbers[k++ % numbers.length]}): ${word} TS${k}: m ${k} (x)`);
  const got = parseDiagnostics(lines.join("\n"), { root: "/p", cwd: "/p", format: "tsc" });
  expect(got).toEqual(lines.map(expected) as never);
});

test("a plain line followed by its message chain keeps the chain", () => {
  const text = [
    "a.ts(1,7): error TS2322: Type 'x' is not assignable to type 'y'.",
    "  Types of property 'z' are incompatible.",
    "a.ts(2,1): warning TS6133: 'v' is declared but its value is never read.",
  ].join("\n");
  const got = parseDiagnostics(text, { root: "/p", cwd: "/p" });
  expect(got.map((d) => [d.line, d.severity, d.message])).toEqual([
    [
      1,
      "error",
      "Type 'x' is not assignable to type 'y'.\n  Types of property 'z' are incompatible.",
    ],
    [2, "warning", "'v' is declared but its value is never read."],
  ]);
});
