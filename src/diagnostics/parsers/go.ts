import { int, type OutputParser, type RawDiagnostic } from "../parser.ts";

// `./main.go:8:14: undefined: y` from go build and go vet (vet may prefix `vet: `);
// golangci-lint adds the linter's name, `main.go:5:2: ineffectual assignment to x
// (ineffassign)`, and prints the source line after it (with a caret under the column).
const LINE = /^(?:vet: )?(\S+?\.go):(\d+)(?::(\d+))?: (.*)$/;
const LINTER = /^(.*) \(([a-z0-9]+)\)$/;
const CARET = /^\s*\^$/;
const SUMMARY = /^\d+ issues?[:.]/;

export const go: OutputParser = {
  name: "go",
  detect: (text) => text.includes(".go:") && /^(?:vet: )?\S+?\.go:\d+(?::\d+)?: /m.test(text),
  parse(lines, claimed, _base, room) {
    // Newer golangci-lint ends with a count (`1 issues:`); go build and vet do not.
    const summary = lines.some((l) => SUMMARY.test(l));
    const out: RawDiagnostic[] = [];
    for (let i = 0; i < lines.length && out.length < room; i++) {
      if (claimed[i]) continue;
      const m = LINE.exec(lines[i] as string);
      if (m === null) continue;
      claimed[i] = 1;
      const linter = LINTER.exec(m[4] as string);
      // Without the count (golangci-lint 1.x), the echoed source line tells it apart.
      const next = lines[i + 1];
      const echoed = next !== undefined && next !== "" && !LINE.test(next) && !next.startsWith("#");
      const golangci = linter !== null && (summary || echoed);
      if (golangci && echoed) {
        claimed[++i] = 1;
        if (CARET.test(lines[i + 1] ?? "")) claimed[++i] = 1;
      }
      out.push({
        file: m[1] as string,
        line: int(m[2]),
        column: int(m[3]),
        severity: "error",
        code: golangci ? (linter[2] as string) : "",
        message: golangci ? (linter[1] as string) : (m[4] as string),
        tool: golangci ? "golangci-lint" : "go",
      });
    }
    return out;
  },
};
