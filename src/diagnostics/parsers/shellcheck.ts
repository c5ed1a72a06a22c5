import { jsonDocument } from "../json-document.ts";
import { int, type OutputParser, type RawDiagnostic } from "../parser.ts";
import { severityOf } from "../severity.ts";

// The default (tty) format: `In sh/a.sh line 3:`, the source line, then a marker under the
// column: `     ^-- SC2086 (info): Double quote …` (one marker per problem on that line).
const WHERE = /^In (.+) line (\d+):$/;
const MARK = /^(\s*)\^[-^~]*\s*(SC\d{4}) \((error|warning|info|style)\): (.*)$/;

export const shellcheck: OutputParser = {
  name: "shellcheck",
  detect: (text) =>
    text.includes(" SC") && / SC\d{4} \(/.test(text) && /^In .+ line \d+:$/m.test(text),
  parse(lines, claimed) {
    const out: RawDiagnostic[] = [];
    let file = "";
    let line = 0;
    for (let i = 0; i < lines.length; i++) {
      if (claimed[i]) continue;
      const text = lines[i] as string;
      const where = WHERE.exec(text);
      if (where !== null) {
        file = where[1] as string;
        line = int(where[2]);
        claimed[i] = 1;
        continue;
      }
      const m = file === "" ? null : MARK.exec(text);
      if (m === null) continue;
      claimed[i] = 1;
      out.push({
        file,
        line,
        column: (m[1] as string).length + 1,
        severity: m[3] === "style" ? "info" : severityOf(m[3]),
        code: m[2] as string,
        message: m[4] as string,
        tool: "shellcheck",
      });
    }
    return out;
  },
};

interface ShellcheckComment {
  file?: string;
  line?: number;
  endLine?: number;
  column?: number;
  endColumn?: number;
  level?: string;
  code?: number;
  message?: string;
}

/** `shellcheck -f json1` (`-f json` is the same list without the wrapping object). */
export const shellcheckJson: OutputParser = {
  name: "shellcheck-json",
  detect: (text) => text.includes('"level":') && /"code":\s*\d{4}/.test(text),
  parse(lines, claimed) {
    const doc = jsonDocument(lines, claimed, lines.some((l) => l.startsWith("[")) ? "[" : "{");
    const comments = Array.isArray(doc)
      ? doc
      : ((doc as { comments?: unknown } | undefined)?.comments ?? []);
    if (!Array.isArray(comments)) return [];
    return (comments as ShellcheckComment[]).map(
      (c): RawDiagnostic => ({
        file: c.file ?? "",
        line: c.line ?? 0,
        column: c.column ?? 0,
        ...(c.endLine ? { endLine: c.endLine } : {}),
        ...(c.endColumn ? { endColumn: c.endColumn } : {}),
        severity: c.level === "style" ? "info" : severityOf(c.level),
        code: c.code === undefined ? "" : `SC${c.code}`,
        message: c.message ?? "",
        tool: "shellcheck",
      }),
    );
  },
};
