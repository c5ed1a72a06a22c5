import { int, lineParser } from "../parser.ts";
import { severityOf } from "../severity.ts";

// Anything that starts with `path/to/file.ext:line[:col]` (after an optional word such as
// `ERROR` or `at`): the fallback when no known format matched. The extension starts with a
// letter, so `127.0.0.1:5432` is not a file.
const LINE =
  /^(?:\s*(?:\[?(error|warning|warn|info|note)\]?:?|at)\s+)?((?:[A-Za-z]:)?[\w./\\@~+-]*\.[A-Za-z][A-Za-z0-9]*):(\d+)(?::(\d+))?(?::|\s|$)\s*(.*)$/i;

export const generic = lineParser("generic", /\.[A-Za-z0-9]+:\d+/, LINE, (m) => {
  const rest = (m[5] ?? "").trim();
  // A bare `file:line` says where but not what: the raw output says it better.
  if (rest === "") return null;
  const word = /^(error|warning|warn|note|info)\b:?\s*/i.exec(rest);
  return {
    file: m[2] as string,
    line: int(m[3]),
    column: int(m[4]),
    severity: severityOf(m[1] ?? word?.[1]),
    code: "",
    message: (word ? rest.slice(word[0].length) : rest) || rest,
    tool: "generic",
  };
});
