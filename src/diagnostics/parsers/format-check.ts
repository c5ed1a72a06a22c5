import { int, lineParser } from "../parser.ts";

// Formatters in check mode name files, not problems: the whole file (line 0) is the spot.

/** `black --check`: `would reformat py/a.py`. */
export const black = lineParser("black", /^would reformat /m, /^would reformat (.+)$/, (m) => ({
  file: m[1] as string,
  line: 0,
  column: 0,
  severity: "error",
  code: "format",
  message: "would be reformatted by black",
  tool: "black",
}));

/** `prettier --check`: `[warn] src/d.js`, then a `[warn] Code style issues …` summary. */
export const prettier = lineParser(
  "prettier",
  /^\[warn\] Code style issues/m,
  /^\[warn\] (?!Code style issues)(\S.*)$/,
  (m) => ({
    file: m[1] as string,
    line: 0,
    column: 0,
    severity: "error",
    code: "format",
    message: "not formatted as Prettier would",
    tool: "prettier",
  }),
);

/** `rustfmt --check` / `cargo fmt --check`: `Diff in /abs/src/main.rs:1:` (older: `at line 1:`). */
export const rustfmt = lineParser(
  "rustfmt",
  /^Diff in .+(?::\d+| at line \d+):$/m,
  /^Diff in (.+?)(?::(\d+)| at line (\d+)):$/,
  (m) => ({
    file: m[1] as string,
    line: int(m[2] ?? m[3]),
    column: 0,
    severity: "error",
    code: "format",
    message: "not formatted as rustfmt would",
    tool: "rustfmt",
  }),
);
