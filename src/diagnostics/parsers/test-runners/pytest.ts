import { int, type OutputParser, type RawDiagnostic } from "../../parser.ts";

// The short summary names each failure (`FAILED tests/test_a.py::test_add - assert -1 == 3`);
// the failure's section above it (`____ test_add ____`) ends in its spot: `tests/test_a.py:6: AssertionError`.
const SUMMARY = /^(FAILED|ERROR) ([^\s:]+)::(\S+)(?: - (.*))?$/;
// A file that could not even be collected (an import error): `ERROR tests/test_b.py`.
const COLLECT = /^ERROR ([^\s:]+\.py)(?: - (.*))?$/;
const SECTION = /^_{3,} (.+?) _{3,}$/;
const SPOT = /^([^\s:]+\.py):(\d+): \w/;

export const pytest: OutputParser = {
  name: "pytest",
  detect: (text) =>
    (text.includes("FAILED ") || text.includes("ERROR ")) &&
    /^(?:(?:FAILED|ERROR) \S+::\S+|ERROR \S+\.py\b)/m.test(text),
  parse(lines, claimed) {
    const spots = new Map<string, { file: string; line: number }>();
    let section: string | null = null;
    for (const line of lines) {
      const s = SECTION.exec(line);
      if (s !== null) section = s[1] as string;
      const spot = section === null ? null : SPOT.exec(line);
      if (spot !== null && section !== null)
        spots.set(section, { file: spot[1] as string, line: int(spot[2]) });
    }
    const out: RawDiagnostic[] = [];
    for (let i = 0; i < lines.length; i++) {
      if (claimed[i]) continue;
      const collect = COLLECT.exec(lines[i] as string);
      if (collect !== null) {
        claimed[i] = 1;
        out.push({
          file: collect[1] as string,
          line: 0,
          column: 0,
          severity: "error",
          code: "collection",
          message: `could not be collected: ${collect[2] ?? lastError(lines, i) ?? "see the log"}`,
          tool: "pytest",
        });
        continue;
      }
      const m = SUMMARY.exec(lines[i] as string);
      if (m === null) continue;
      claimed[i] = 1;
      const test = m[3] as string;
      // A section is titled with the test's last part (`TestA.test_x` for a method).
      const spot =
        spots.get(test.replaceAll("::", ".")) ?? spots.get(test.split("::").at(-1) ?? "");
      out.push({
        file: spot?.file ?? (m[2] as string),
        line: spot?.line ?? 0,
        column: 0,
        severity: "error",
        code: test,
        message: `${m[1] === "ERROR" ? "error in" : "failed:"} ${test}${m[4] ? `: ${m[4]}` : ""}`,
        tool: "pytest",
      });
    }
    return out;
  },
};

/** A collection error's cause: the last `E   <error>` line above `before`. */
function lastError(lines: readonly string[], before: number): string | undefined {
  for (let i = before - 1; i >= 0; i--) {
    const m = /^E\s+(\S.*)$/.exec(lines[i] as string);
    if (m !== null) return m[1];
  }
  return undefined;
}
