import type { OutputParser, RawDiagnostic } from "../parser.ts";
import { severityOf } from "../severity.ts";

// `mypy -O json` (mypy 1.11 and later): one object a line, columns from 0, the end column
// as the text form's `--show-error-end` prints it; a hint (overload variants) is the notes
// the text form prints after the error, joined to its message here as there.
interface MypyMessage {
  file?: string;
  line?: number;
  column?: number;
  end_line?: number;
  end_column?: number;
  message?: string;
  hint?: string | null;
  code?: string | null;
  severity?: string;
}

const count = (n: unknown): number | undefined =>
  typeof n === "number" && Number.isInteger(n) && n >= 0 ? n : undefined;

export const mypyJson: OutputParser = {
  name: "mypy-json",
  detect: (text) => text.includes('"hint": ') && /^\{"file": "/m.test(text),
  parse(lines, claimed, _base, room) {
    const out: RawDiagnostic[] = [];
    for (let i = 0; i < lines.length && out.length < room; i++) {
      const line = lines[i] as string;
      if (claimed[i] || !line.startsWith('{"file": ')) continue;
      let value: MypyMessage;
      try {
        value = JSON.parse(line);
      } catch {
        continue;
      }
      if (typeof value !== "object" || value === null || typeof value.file !== "string") continue;
      claimed[i] = 1;
      const column = count(value.column);
      const endLine = count(value.end_line);
      const endColumn = count(value.end_column);
      const hint = typeof value.hint === "string" && value.hint !== "" ? value.hint : null;
      out.push({
        file: value.file,
        line: count(value.line) ?? 0,
        column: column === undefined ? 0 : column + 1,
        ...(endLine !== undefined ? { endLine } : {}),
        ...(endColumn !== undefined ? { endColumn } : {}),
        severity: severityOf(value.severity),
        code: typeof value.code === "string" ? value.code : "",
        message: `${value.message ?? ""}${hint === null ? "" : `\n  note: ${hint.replaceAll("\n", "\n  ")}`}`,
        tool: "mypy",
      });
    }
    return out;
  },
};
