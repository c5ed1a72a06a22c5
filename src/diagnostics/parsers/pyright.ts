import { int, type OutputParser, type RawDiagnostic } from "../parser.ts";

// `  /abs/py/a.py:8:10 - error: Type "int" is not assignable…`, the rule in parentheses at
// the end of the message, whose later lines are indented further (pyright, basedpyright).
const LINE = /^ {2}(\S(?:.*?\S)?):(\d+):(\d+) - (error|warning|information): (.*)$/;
const MORE = /^\s{4,}\S/;
const RULE = /\s*\((report\w+)\)$/;

export const pyright: OutputParser = {
  name: "pyright",
  detect: (text) => / - (?:error|warning|information): /.test(text),
  parse(lines, claimed, _base, room) {
    const out: RawDiagnostic[] = [];
    for (let i = 0; i < lines.length && out.length < room; i++) {
      if (claimed[i]) continue;
      const m = LINE.exec(lines[i] as string);
      if (m === null) continue;
      claimed[i] = 1;
      const message = [m[5] as string];
      while (i + 1 < lines.length && !claimed[i + 1] && MORE.test(lines[i + 1] as string)) {
        i++;
        claimed[i] = 1;
        message.push((lines[i] as string).trim());
      }
      const text = message.join("\n");
      const rule = RULE.exec(text);
      out.push({
        file: m[1] as string,
        line: int(m[2]),
        column: int(m[3]),
        severity: m[4] === "error" ? "error" : m[4] === "warning" ? "warning" : "info",
        code: rule?.[1] ?? "",
        message: rule ? text.slice(0, rule.index) : text,
        tool: "pyright",
      });
    }
    return out;
  },
};
