import type { OutputParser, RawDiagnostic } from "../../parser.ts";
import { firstFrame } from "./stack.ts";

// Each failure prints its code frame, `error: <message>`, a stack, then `(fail) name [0.2ms]`.
const FAIL = /^\(fail\) (.+?)(?: \[[\d.]+m?s\])?$/;
const ERROR = /^error: (.*)$/;

export const bunTest: OutputParser = {
  name: "bun-test",
  detect: (text) => text.includes("(fail) ") && /^\(fail\) /m.test(text),
  parse(lines, claimed) {
    const out: RawDiagnostic[] = [];
    let from = 0;
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i] as string;
      if (/^\((?:pass|skip|todo)\) /.test(line)) from = i + 1;
      const m = claimed[i] ? null : FAIL.exec(line);
      if (m === null) continue;
      claimed[i] = 1;
      let message = "";
      for (let j = from; j < i && message === ""; j++) {
        const e = ERROR.exec(lines[j] as string);
        if (e !== null) message = (e[1] as string).trim();
      }
      const spot = firstFrame(lines, from, i);
      const test = (m[1] as string).trim();
      out.push({
        file: spot?.file ?? "",
        line: spot?.line ?? 0,
        column: spot?.column ?? 0,
        severity: "error",
        code: test,
        message: `failed: ${test}${message ? `: ${message}` : ""}`,
        tool: "bun-test",
      });
      from = i + 1;
    }
    return out;
  },
};
