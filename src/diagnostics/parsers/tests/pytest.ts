import { int, type OutputParser, type RawDiagnostic } from "../../parser.ts";

// The short summary names each failure (`FAILED tests/test_a.py::test_add - assert -1 == 3`);
// the failure's section above it (`____ test_add ____`) ends in its spot: `tests/test_a.py:6: AssertionError`.
const SUMMARY = /^(FAILED|ERROR) ([^\s:]+)::(\S+)(?: - (.*))?$/;
const SECTION = /^_{3,} (.+?) _{3,}$/;
const SPOT = /^([^\s:]+\.py):(\d+): \w/;

/** pytest's failure summary. */
export const pytest: OutputParser = {
  name: "pytest",
  detect: (text) => /^(?:FAILED|ERROR) \S+::\S+/m.test(text),
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
