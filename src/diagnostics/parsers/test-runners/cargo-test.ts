import { int, type OutputParser, type RawDiagnostic } from "../../parser.ts";

// `thread 'tests::it_fails' (13953) panicked at src/lib.rs:14:9:` then the message on the
// next line; before Rust 1.73: `thread 'x' panicked at 'message', src/lib.rs:14:9`.
const NOW = /^thread '(.+?)'(?: \(\d+\))? panicked at (.+?):(\d+):(\d+):$/;
const OLD = /^thread '(.+?)'(?: \(\d+\))? panicked at '(.*)', (.+?):(\d+):(\d+)$/;

export const cargoTest: OutputParser = {
  name: "cargo-test",
  detect: (text) =>
    text.includes(" panicked at ") && /^thread '.+?'(?: \(\d+\))? panicked at /m.test(text),
  parse(lines, claimed) {
    const out: RawDiagnostic[] = [];
    for (let i = 0; i < lines.length; i++) {
      if (claimed[i]) continue;
      const line = lines[i] as string;
      const now = NOW.exec(line);
      const old = now === null ? OLD.exec(line) : null;
      if (now === null && old === null) continue;
      claimed[i] = 1;
      const test = ((now ?? old) as RegExpExecArray)[1] as string;
      let message = old?.[2] ?? "";
      if (now !== null) {
        // The message runs to the backtrace, a note or a blank line.
        const parts: string[] = [];
        for (let j = i + 1; j < lines.length && parts.length < 4; j++) {
          const next = lines[j] as string;
          if (next.trim() === "" || /^(?:stack backtrace:|note: )/.test(next)) break;
          parts.push(next.trim());
          claimed[j] = 1;
        }
        message = parts.join("; ");
      }
      out.push({
        file: (now ? now[2] : old?.[3]) ?? "",
        line: int(now ? now[3] : old?.[4]),
        column: int(now ? now[4] : old?.[5]),
        severity: "error",
        code: test,
        message: `failed: ${test}${message ? `: ${message}` : ""}`,
        tool: "cargo-test",
      });
    }
    return out;
  },
};
