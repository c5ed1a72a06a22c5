import { int, type OutputParser, type RawDiagnostic } from "../parser.ts";

// Graphical (miette) reports: `  x eslint(no-debugger): message` (`!` a warning; `×`/`⚠`
// on a terminal), then the location in a frame's top edge: `   ,-[src/d.js:2:1]` / `╭─[…]`.
const HEADER = /^\s{0,4}([x×!⚠]) (?:([\w-]+)\(([\w/@-]+)\): )?(.*)$/;
const LOCATION = /^\s+(?:,-|╭─)\[(.+?):(\d+):(\d+)\]\s*$/;

export const oxlint: OutputParser = {
  name: "oxlint",
  detect: (text) =>
    (text.includes(",-[") || text.includes("╭─[")) &&
    /^\s+(?:,-|╭─)\[.+?:\d+:\d+\]\s*$/m.test(text),
  parse(lines, claimed) {
    const out: RawDiagnostic[] = [];
    for (let i = 0; i < lines.length; i++) {
      if (claimed[i]) continue;
      const h = HEADER.exec(lines[i] as string);
      if (h === null) continue;
      const at = LOCATION.exec(lines[i + 1] ?? "");
      if (at === null) continue;
      claimed[i] = 1;
      claimed[i + 1] = 1;
      const plugin = h[2];
      out.push({
        file: at[1] as string,
        line: int(at[2]),
        column: int(at[3]),
        severity: h[1] === "!" || h[1] === "⚠" ? "warning" : "error",
        code: h[3] === undefined ? "" : plugin && plugin !== "eslint" ? `${plugin}/${h[3]}` : h[3],
        message: (h[4] as string).trim(),
        tool: "oxlint",
      });
    }
    return out;
  },
};
