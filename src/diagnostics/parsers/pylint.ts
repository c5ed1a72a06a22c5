import { jsonDocument } from "../json-document.ts";
import { int, lineParser, type OutputParser, type RawDiagnostic } from "../parser.ts";

// `py/a.py:4:11: E0602: Undefined variable 'x' (undefined-variable)`: the letter is the
// category (Fatal, Error, Warning, Convention, Refactor, Info).
const LINE = /^(.+?):(\d+):(\d+): ([FEWCRI]\d{4}): (.*?)(?: \(([a-z0-9-]+)\))?$/;

export const pylint = lineParser("pylint", /:\d+:\d+: [FEWCRI]\d{4}: /, LINE, (m) => {
  const letter = (m[4] as string)[0];
  return {
    file: m[1] as string,
    line: int(m[2]),
    column: int(m[3]) + 1, // pylint counts columns from 0
    severity: letter === "F" || letter === "E" ? "error" : letter === "W" ? "warning" : "info",
    code: m[4] as string,
    message: m[6] ? `${m[5]} (${m[6]})` : (m[5] as string),
    tool: "pylint",
  };
});

interface PylintMessage {
  type?: string;
  line?: number;
  column?: number;
  endLine?: number | null;
  endColumn?: number | null;
  path?: string;
  symbol?: string;
  message?: string;
  "message-id"?: string;
}

export const pylintJson: OutputParser = {
  name: "pylint-json",
  detect: (text) => text.includes('"message-id":') && text.includes('"symbol":'),
  parse(lines, claimed) {
    const items = jsonDocument(lines, claimed, "[");
    if (!Array.isArray(items)) return [];
    return (items as PylintMessage[]).map(
      (m): RawDiagnostic => ({
        file: m.path ?? "",
        line: m.line ?? 0,
        column: (m.column ?? 0) + 1,
        ...(m.endLine ? { endLine: m.endLine } : {}),
        ...(m.endColumn ? { endColumn: m.endColumn + 1 } : {}),
        severity:
          m.type === "error" || m.type === "fatal"
            ? "error"
            : m.type === "warning"
              ? "warning"
              : "info",
        code: m["message-id"] ?? "",
        message: m.symbol ? `${m.message ?? ""} (${m.symbol})` : (m.message ?? ""),
        tool: "pylint",
      }),
    );
  },
};
