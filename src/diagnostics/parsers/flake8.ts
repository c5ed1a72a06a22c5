import { int, type OutputParser, type RawDiagnostic } from "../parser.ts";

// `py/a.py:1:1: F401 'os' imported but unused`: flake8, and ruff's concise output (which
// ends in `Found 3 errors.`; ruff before 0.5 printed this by default).
const LINE = /^(.+?):(\d+):(\d+): ([A-Z]{1,4}\d{1,4})(?: \[\*\])? (.*)$/;
const RUFF_SUMMARY = /^(?:Found \d+ errors?\.|\[\*\] \d+ fixable with the `--fix` option)/;

export const flake8: OutputParser = {
  name: "flake8",
  detect: (text) => /:\d+:\d+: [A-Z]{1,4}\d{1,4} /.test(text),
  parse(lines, claimed, _base, room) {
    const tool = lines.some((l) => RUFF_SUMMARY.test(l)) ? "ruff" : "flake8";
    const out: RawDiagnostic[] = [];
    for (let i = 0; i < lines.length && out.length < room; i++) {
      if (claimed[i]) continue;
      const m = LINE.exec(lines[i] as string);
      if (m === null) continue;
      claimed[i] = 1;
      const code = m[4] as string;
      out.push({
        file: m[1] as string,
        line: int(m[2]),
        column: int(m[3]),
        // pycodestyle's W codes are warnings; everything else fails the check.
        severity: tool === "flake8" && /^W\d/.test(code) ? "warning" : "error",
        code,
        message: m[5] as string,
        tool,
      });
    }
    return out;
  },
};
