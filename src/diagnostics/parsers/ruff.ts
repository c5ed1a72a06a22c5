import { jsonDocument } from "../json-document.ts";
import { int, type OutputParser, type RawDiagnostic } from "../parser.ts";

// ruff's full output (0.5 and later): `F821 Undefined name `x`` (`F401 [*] …` when fixable),
// then ` --> a.py:1:1` and a code frame. Newer versions write rule names for syntax errors
// (`invalid-syntax: …`).
const HEADER = /^(?:([A-Z]{1,4}\d{1,4})(?: \[\*\])? |([a-z]+(?:-[a-z]+)+): )(.*)$/;
const ARROW = /^\s*--> (.+?):(\d+):(\d+)\s*$/;

export const ruffFull: OutputParser = {
  name: "ruff",
  detect: (text) =>
    text.includes("--> ") &&
    /^(?:[A-Z]{1,4}\d{1,4}(?: \[\*\])? |[a-z]+(?:-[a-z]+)+: ).*\n\s*--> /m.test(text),
  parse(lines, claimed) {
    const out: RawDiagnostic[] = [];
    for (let i = 0; i + 1 < lines.length; i++) {
      if (claimed[i]) continue;
      const h = HEADER.exec(lines[i] as string);
      if (h === null) continue;
      const at = ARROW.exec(lines[i + 1] as string);
      if (at === null) continue;
      claimed[i] = 1;
      claimed[i + 1] = 1;
      out.push({
        file: at[1] as string,
        line: int(at[2]),
        column: int(at[3]),
        severity: "error",
        code: h[1] ?? h[2] ?? "",
        message: (h[3] as string).trim(),
        tool: "ruff",
      });
    }
    return out;
  },
};

interface RuffJson {
  code?: string | null;
  message?: string;
  filename?: string;
  location?: { row?: number; column?: number };
  end_location?: { row?: number; column?: number };
}

export const ruffJson: OutputParser = {
  name: "ruff-json",
  detect: (text) => /^\s*\[/.test(text) && /"noqa_row"|"end_location"/.test(text),
  parse(lines, claimed) {
    const items = jsonDocument(lines, claimed, "[");
    if (!Array.isArray(items)) return [];
    return (items as RuffJson[]).map(
      (f): RawDiagnostic => ({
        file: f.filename ?? "",
        line: int(String(f.location?.row ?? 0)),
        column: int(String(f.location?.column ?? 0)),
        ...(f.end_location?.row ? { endLine: f.end_location.row } : {}),
        ...(f.end_location?.column ? { endColumn: f.end_location.column } : {}),
        severity: "error",
        code: f.code ?? "",
        message: f.message ?? "",
        tool: "ruff",
      }),
    );
  },
};
