import { int, type OutputParser, type RawDiagnostic } from "../parser.ts";
import { severityOf } from "../severity.ts";

// The GNU shape many tools share: `file:line[:col[:endLine:endCol]]: severity: message`,
// the code in brackets after the severity (rustc short: `error[E0425]:`) or at the end
// (gcc `[-Wunused-variable]`, mypy `  [assignment]`, shellcheck -f gcc `[SC2086]`).
const LINE =
  /^(.+?):(\d+):(?:(\d+):)?(?:(\d+):(\d+):)? ?(fatal error|error|warning|note|info|style|help)(?:\[([^\]]+)\])?: (.*)$/;
const TRAILING_CODE = /\s+\[([^\]\s]+)\]$/;
/** clang's last line (gcc prints none): `1 error generated.`, `2 warnings and 1 error generated.` */
const CLANG_SUMMARY = /^\d+ (?:errors?|warnings?)(?: and \d+ (?:errors?|warnings?))? generated\.$/;

const MAX_WRAPPED = 6;
/** mypy's summary lines, which follow its last diagnostic flush left too. */
const MYPY_SUMMARY = /^(?:Found \d+ errors? in \d+ files?|Success: no issues found)/;

const ENDS_IN_CODE = /(?:^|\s)\[[^\]\s]+\]$/;

/** The rest of a wrapped mypy message: flush left (its code frame is indented by four or more). */
function wrapsOn(line: string): boolean {
  return line.trim() !== "" && !/^\s\s/.test(line) && !LINE.test(line) && !MYPY_SUMMARY.test(line);
}

function toolOf(file: string, code: string, compiler: string): string {
  if (code.startsWith("clippy::")) return "clippy";
  if (/^SC\d{4}$/.test(code)) return "shellcheck";
  const ext = /\.([A-Za-z0-9]+)$/.exec(file)?.[1]?.toLowerCase() ?? "";
  if (ext === "rs") return "rustc";
  if (ext === "py" || ext === "pyi") return "mypy";
  if (ext === "go") return "go";
  if (["sh", "bash", "zsh", "ksh"].includes(ext)) return "shellcheck";
  if (["c", "h", "cc", "cpp", "cxx", "hpp", "hh", "m", "mm"].includes(ext)) return compiler;
  return "compiler";
}

/** gcc and clang, mypy, rustc short, shellcheck `-f gcc`. A note on the same spot joins its message. */
export const gnu: OutputParser = {
  name: "gnu",
  detect: (text) =>
    (text.includes("error") || text.includes("warning") || text.includes("note")) &&
    /^.+?:\d+:(?:\d+:)? ?(?:fatal error|error|warning|note)(?:\[[^\]]+\])?: /m.test(text),
  parse(lines, claimed, _base, room) {
    const out: RawDiagnostic[] = [];
    const compiler = lines.some((l) => CLANG_SUMMARY.test(l)) ? "clang" : "gcc";
    for (let i = 0; i < lines.length; i++) {
      if (claimed[i]) continue;
      const m = LINE.exec(lines[i] as string);
      if (m === null) continue;
      claimed[i] = 1;
      let message = m[8] as string;
      // mypy's pretty output wraps a long message onto lines of its own, flush left, the
      // code (`[return-value]`) ending the last; its code frame follows, indented. Only a
      // run of such lines that ends in a code is joined: another tool's line is not.
      if (/\.pyi?$/.test(m[1] as string) && !ENDS_IN_CODE.test(message.trimEnd())) {
        let end = i;
        for (let j = i + 1; j < lines.length && j <= i + MAX_WRAPPED; j++) {
          const next = lines[j] as string;
          if (claimed[j] || !wrapsOn(next)) break;
          if (ENDS_IN_CODE.test(next.trimEnd())) {
            end = j;
            break;
          }
        }
        for (let j = i + 1; j <= end; j++) {
          message = `${message.trimEnd()} ${(lines[j] as string).trim()}`;
          claimed[j] = 1;
        }
        i = end;
      }
      let code = m[7] ?? "";
      const trailing = TRAILING_CODE.exec(message);
      if (code === "" && trailing !== null) {
        code = trailing[1] as string;
        message = message.slice(0, trailing.index);
      }
      const word = m[6] as string;
      const file = m[1] as string;
      const prev = out.at(-1);
      // gcc's notes may point elsewhere ("declared here"); mypy's own notes (reveal_type)
      // stand alone, its notes to an error sit on the error's line.
      const joins = prev?.file === file && (prev.tool !== "mypy" || prev.line === int(m[2]));
      if ((word === "note" || word === "help") && code === "" && joins) {
        out[out.length - 1] = { ...prev, message: `${prev.message}\n  ${word}: ${message}` };
        continue;
      }
      if (out.length >= room) break;
      out.push({
        file,
        line: int(m[2]),
        column: int(m[3]),
        ...(m[4] !== undefined ? { endLine: int(m[4]) } : {}),
        ...(m[5] !== undefined ? { endColumn: int(m[5]) } : {}),
        severity: word === "style" ? "info" : severityOf(word),
        code,
        message: message.trim(),
        tool: toolOf(file, code, compiler),
      });
    }
    return out;
  },
};
