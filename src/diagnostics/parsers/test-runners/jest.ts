import type { OutputParser, RawDiagnostic } from "../../parser.ts";
import { firstFrame } from "./stack.ts";

// ` FAIL src/a.test.js`, then per failure `  ● math › adds`, a blank line, the message, and
// a stack whose first own frame is the spot: `at Object.toBe (src/a.test.js:3:19)`.
const FILE = /^\s*FAIL\s+(\S+)/;
const TITLE = /^\s{2}● (.+)$/;

export const jest: OutputParser = {
  name: "jest",
  detect: (text) => text.includes("●") && /^\s{2}● .+\n\n/m.test(text),
  parse(lines, claimed) {
    const out: RawDiagnostic[] = [];
    let file = "";
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i] as string;
      const f = FILE.exec(line);
      if (f !== null) file = f[1] as string;
      const t = claimed[i] ? null : TITLE.exec(line);
      if (t === null) continue;
      claimed[i] = 1;
      let end = i + 1;
      while (
        end < lines.length &&
        !TITLE.test(lines[end] as string) &&
        !FILE.test(lines[end] as string)
      )
        end++;
      const first = lines.slice(i + 1, end).find((l) => l.trim() !== "") ?? "";
      const spot = firstFrame(lines, i + 1, end);
      out.push({
        file: spot?.file ?? file,
        line: spot?.line ?? 0,
        column: spot?.column ?? 0,
        severity: "error",
        code: (t[1] as string).trim(),
        message: `failed: ${(t[1] as string).trim()}: ${first.trim()}`,
        tool: "jest",
      });
    }
    return out;
  },
};
