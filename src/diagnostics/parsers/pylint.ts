import { int, lineParser } from "../parser.ts";

// `py/a.py:4:11: E0602: Undefined variable 'x' (undefined-variable)`: the letter is the
// category (Fatal, Error, Warning, Convention, Refactor, Info).
const LINE = /^(.+?):(\d+):(\d+): ([FEWCRI]\d{4}): (.*?)(?: \(([a-z0-9-]+)\))?$/;

/** pylint's default text output. */
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
