import { int, type OutputParser, type RawDiagnostic } from "../parser.ts";
import { severityOf } from "../severity.ts";

// `src/a.ts(1,7): error TS2322: …` (plain) and `src/a.ts:1:7 - error TS2322: …` (--pretty);
// a project-wide error has no file: `error TS5023: …`.
const PLAIN = /^(.+?)\((\d+),(\d+)\): (error|warning|message) (TS\d+): (.*)$/;
const PRETTY = /^(.+?):(\d+):(\d+) - (error|warning|message) (TS\d+): (.*)$/;
const GLOBAL = /^(error|warning|message) (TS\d+): (.*)$/;
const CONTINUED = /^ {2,}\S/;

function continues(line: string): boolean {
  return line.charCodeAt(0) === 32 && CONTINUED.test(line);
}

/** An indented line right after a header continues its message. */
export const tsc: OutputParser = {
  name: "tsc",
  detect: (text) =>
    text.includes("TS") &&
    (/ (?:error|warning) TS\d+: /.test(text) || /^error TS\d+: /m.test(text)),
  parse(lines, claimed, _base, room) {
    const out: RawDiagnostic[] = [];
    for (let i = 0; i < lines.length && out.length < room; i++) {
      if (claimed[i]) continue;
      const line = lines[i] as string;
      // The plain header, most lines of a dense output, read with no call but the regex's.
      const p = PLAIN.exec(line);
      const next = lines[i + 1];
      if (p !== null && !(next !== undefined && next[0] === " " && CONTINUED.test(next))) {
        claimed[i] = 1;
        const s = p[4] as string;
        const at = +(p[2] as string);
        const col = +(p[3] as string);
        out.push({
          file: p[1] as string,
          line: at < Number.POSITIVE_INFINITY ? at : 0, // as int(): digits, 0 when too long
          column: col < Number.POSITIVE_INFINITY ? col : 0,
          severity: s === "error" ? "error" : s === "warning" ? "warning" : "info",
          code: p[5] as string,
          message: p[6] as string,
          tool: "tsc",
        });
        continue;
      }
      const m = p ?? PRETTY.exec(line);
      const g = m === null ? GLOBAL.exec(line) : null;
      if (m === null && g === null) continue;
      claimed[i] = 1;
      let message = (m ? m[6] : g?.[3]) ?? "";
      // A message chain: indented lines that are not a code frame (`~~~`, `12 code`).
      while (i + 1 < lines.length && continues(lines[i + 1] as string)) {
        const next = (lines[i + 1] as string).trim();
        if (/^[~\s]+$/.test(next) || /^\d+ /.test(next)) break;
        message += `\n  ${next}`;
        claimed[++i] = 1;
      }
      out.push({
        file: m ? (m[1] as string) : "",
        line: int(m?.[2]),
        column: int(m?.[3]),
        severity: severityOf(m ? m[4] : g?.[1]),
        code: (m ? m[5] : g?.[2]) ?? "",
        message,
        tool: "tsc",
      });
    }
    return out;
  },
};
