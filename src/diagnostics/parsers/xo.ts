import { int, type OutputParser, type RawDiagnostic } from "../parser.ts";

// xo's reporter: an indented `  src/b.js:1:1` header, then `  ✖  1:5  message  rule` rows
// (`⚠` for a warning, `ℹ` for info).
const HEADER = /^ {2}(\S.*?):\d+:\d+\s*$/;
const ROW = /^\s+([✖⚠ℹ×])\s+(\d+):(\d+)\s+(.*?)(?:\s{2,}([@\w/-]+))?\s*$/;

/** xo, and eslint-formatter-pretty, which it uses. */
export const xo: OutputParser = {
  name: "xo",
  detect: (text) =>
    (text.includes("✖") || text.includes("⚠") || text.includes("ℹ")) &&
    /^\s+[✖⚠ℹ]\s+\d+:\d+\s+\S/m.test(text),
  parse(lines, claimed) {
    const out: RawDiagnostic[] = [];
    let file: string | null = null;
    for (let i = 0; i < lines.length; i++) {
      if (claimed[i]) continue;
      const line = lines[i] as string;
      const header = HEADER.exec(line);
      if (header !== null) {
        file = header[1] as string;
        claimed[i] = 1;
        continue;
      }
      const row = file === null ? null : ROW.exec(line);
      if (row === null || file === null) continue;
      claimed[i] = 1;
      const mark = row[1];
      out.push({
        file,
        line: int(row[2]),
        column: int(row[3]),
        severity: mark === "⚠" ? "warning" : mark === "ℹ" ? "info" : "error",
        code: row[5] ?? "",
        message: (row[4] ?? "").trim(),
        tool: "xo",
      });
    }
    return out;
  },
};
