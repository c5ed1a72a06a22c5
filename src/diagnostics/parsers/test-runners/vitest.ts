import { int, type OutputParser, type RawDiagnostic } from "../../parser.ts";

// ` FAIL  src/v.test.ts > math > adds`, the error's first line, then its spot: ` ❯ src/v.test.ts:5:19`.
const TITLE = /^\s*FAIL\s+(\S+) > (.+)$/;
const SPOT = /^\s*❯ (\S+?):(\d+):(\d+)\s*$/;

export const vitest: OutputParser = {
  name: "vitest",
  detect: (text) => text.includes("FAIL") && /^[ \t]*FAIL\s+\S+ > /m.test(text),
  parse(lines, claimed) {
    const out: RawDiagnostic[] = [];
    for (let i = 0; i < lines.length; i++) {
      if (claimed[i]) continue;
      const t = TITLE.exec(lines[i] as string);
      if (t === null) continue;
      claimed[i] = 1;
      let end = i + 1;
      while (end < lines.length && !TITLE.test(lines[end] as string)) end++;
      const message = (lines[i + 1] ?? "").trim();
      let spot: RegExpExecArray | null = null;
      for (let j = i + 1; j < end && spot === null; j++) spot = SPOT.exec(lines[j] as string);
      const test = (t[2] as string).trim();
      out.push({
        file: spot?.[1] ?? (t[1] as string),
        line: int(spot?.[2]),
        column: int(spot?.[3]),
        severity: "error",
        code: test,
        message: `failed: ${test}: ${message}`,
        tool: "vitest",
      });
    }
    return out;
  },
};
