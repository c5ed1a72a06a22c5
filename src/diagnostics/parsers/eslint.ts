import { jsonDocument } from "../json-document.ts";
import { int, lineParser, type OutputParser, type RawDiagnostic } from "../parser.ts";
import { severityOf } from "../severity.ts";

// stylish (the default): a file's path on its own line, then one row per problem:
//   `  3:25  error  'x' is not defined  no-undef` (the rule is absent for parse errors).
const ROW = /^\s+(\d+):(\d+)\s+(error|warning)\s+(.*?)(?:\s{2,}([@\w/-]+))?\s*$/;
const HEADER = /^(\S.*\S)\s*$/;

export const eslintStylish: OutputParser = {
  name: "eslint",
  detect: (text) =>
    (text.includes("error") || text.includes("warning")) &&
    /^\s+\d+:\d+\s+(?:error|warning)\s{2,}\S/m.test(text),
  parse(lines, claimed, _base, room) {
    const out: RawDiagnostic[] = [];
    let file: string | null = null;
    for (let i = 0; i < lines.length && out.length < room; i++) {
      if (claimed[i]) continue;
      const line = lines[i] as string;
      const row = file === null ? null : ROW.exec(line);
      if (row !== null && file !== null) {
        claimed[i] = 1;
        out.push({
          file,
          line: int(row[1]),
          column: int(row[2]),
          severity: severityOf(row[3]),
          code: row[5] ?? "",
          message: (row[4] ?? "").trim(),
          tool: "eslint",
        });
        continue;
      }
      const header = HEADER.exec(line);
      // A header is a path only when a row follows.
      file = header !== null && ROW.test(lines[i + 1] ?? "") ? (header[1] as string) : null;
      if (file !== null) claimed[i] = 1;
    }
    return out;
  },
};

/** `eslint -f compact`: `/a/b.js: line 3, col 25, Error - 'x' is not defined. (no-undef)`. */
export const eslintCompact = lineParser(
  "eslint-compact",
  (text) => text.includes(": line ") && /: line \d+, col \d+, (?:Error|Warning) - /.test(text),
  /^(.+?): line (\d+), col (\d+), (Error|Warning) - (.*?)(?: \(([@\w/-]+)\))?$/,
  (m) => ({
    file: m[1] as string,
    line: int(m[2]),
    column: int(m[3]),
    severity: severityOf(m[4]),
    code: m[6] ?? "",
    message: m[5] ?? "",
    tool: "eslint",
  }),
);

/** `eslint -f unix`: `/a/b.js:3:25: 'x' is not defined. [Error/no-undef]`. */
export const eslintUnix = lineParser(
  "eslint-unix",
  (text) =>
    (text.includes("[Error") || text.includes("[Warning")) &&
    /:\d+:\d+: .* \[(?:Error|Warning)(?:\/[^\]]+)?\]$/m.test(text),
  /^(.+?):(\d+):(\d+): (.*) \[(Error|Warning)(?:\/([^\]]+))?\]$/,
  (m) => ({
    file: m[1] as string,
    line: int(m[2]),
    column: int(m[3]),
    severity: severityOf(m[5]),
    code: m[6] ?? "",
    message: m[4] ?? "",
    tool: "eslint",
  }),
);

interface EslintFile {
  filePath?: string;
  messages?: {
    ruleId?: string | null;
    severity?: number;
    message?: string;
    line?: number;
    column?: number;
    endLine?: number;
    endColumn?: number;
  }[];
}

/** `eslint -f json` (also what xo prints with `--reporter json`): files, each with messages. */
export const eslintJson: OutputParser = {
  name: "eslint-json",
  detect: (text) => text.includes('"filePath":') && text.includes('"messages":'),
  parse(lines, claimed) {
    const files = jsonDocument(lines, claimed, "[");
    if (!Array.isArray(files)) return [];
    return (files as EslintFile[]).flatMap((f) =>
      (f.messages ?? []).map(
        (m): RawDiagnostic => ({
          file: f.filePath ?? "",
          line: m.line ?? 0,
          column: m.column ?? 0,
          ...(m.endLine ? { endLine: m.endLine } : {}),
          ...(m.endColumn ? { endColumn: m.endColumn } : {}),
          severity: m.severity === 2 ? "error" : "warning",
          code: m.ruleId ?? "",
          message: m.message ?? "",
          tool: "eslint",
        }),
      ),
    );
  },
};
