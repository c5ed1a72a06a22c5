import { int, type OutputParser, type RawDiagnostic } from "../parser.ts";

// `./main.go:8:14: undefined: y` from go build and go vet (vet may prefix `vet: `);
// golangci-lint adds the linter's name: `main.go:5:2: ineffectual assignment to x (ineffassign)`.
const LINE = /^(?:vet: )?(\S+?\.go):(\d+)(?::(\d+))?: (.*)$/;
const LINTER = /^(.*) \(([a-z0-9]+)\)$/;

/** go build, go vet, golangci-lint. */
export const go: OutputParser = {
  name: "go",
  detect: (text) => text.includes(".go:") && /^(?:vet: )?\S+?\.go:\d+(?::\d+)?: /m.test(text),
  parse(lines, claimed, _base, room) {
    // golangci-lint ends with a count (`1 issues:` or `N issues.`); go build and vet do not.
    const golangci = lines.some((l) => /^\d+ issues?[:.]/.test(l));
    const out: RawDiagnostic[] = [];
    for (let i = 0; i < lines.length && out.length < room; i++) {
      if (claimed[i]) continue;
      const m = LINE.exec(lines[i] as string);
      if (m === null) continue;
      claimed[i] = 1;
      const linter = golangci ? LINTER.exec(m[4] as string) : null;
      out.push({
        file: m[1] as string,
        line: int(m[2]),
        column: int(m[3]),
        severity: "error",
        code: linter?.[2] ?? "",
        message: linter?.[1] ?? (m[4] as string),
        tool: golangci ? "golangci-lint" : "go",
      });
    }
    return out;
  },
};
