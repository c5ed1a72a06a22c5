import { int, type OutputParser, type RawDiagnostic } from "../../parser.ts";

// `--- FAIL: TestAdd (0.00s)` then the test's log lines, indented: `    add_test.go:7: got -1`.
const FAIL = /^\s*--- FAIL: (\S+)/;
const LOG = /^\s+(\S+?\.go):(\d+): (.*)$/;

/** The file is as go prints it: relative to the package's folder. */
export const goTest: OutputParser = {
  name: "go-test",
  detect: (text) => text.includes("--- FAIL: "),
  parse(lines, claimed) {
    const out: RawDiagnostic[] = [];
    for (let i = 0; i < lines.length; i++) {
      if (claimed[i]) continue;
      const f = FAIL.exec(lines[i] as string);
      if (f === null) continue;
      claimed[i] = 1;
      const test = f[1] as string;
      const log = LOG.exec(lines[i + 1] ?? "");
      if (log !== null) claimed[i + 1] = 1;
      out.push({
        file: log?.[1] ?? "",
        line: int(log?.[2]),
        column: 0,
        severity: "error",
        code: test,
        message: `failed: ${test}${log ? `: ${log[3]}` : ""}`,
        tool: "go-test",
      });
    }
    return out;
  },
};
