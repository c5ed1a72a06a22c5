import { jsonDocument } from "../json-document.ts";
import { int, type OutputParser, type RawDiagnostic } from "../parser.ts";

// `src/b.js:1:5 lint/correctness/noUnusedVariables  FIXABLE  ━━━━` (or `src/b.js format ━━━`),
// then, a blank line later, the message after a mark: `×` error, `!` warning, `i` info.
const HEADER = /^(\S+?)(?::(\d+):(\d+))? ([\w/-]+)(?:\s+FIXABLE)?\s+━{3,}/;
const MESSAGE = /^\s+([×✖!⚠iℹ]) (.*)$/;

export const biome: OutputParser = {
  name: "biome",
  detect: (text) => text.includes("━━━") && /^\S+? [\w/-]+(?:\s+FIXABLE)?\s+━{3,}/m.test(text),
  parse(lines, claimed) {
    const out: RawDiagnostic[] = [];
    for (let i = 0; i < lines.length; i++) {
      if (claimed[i]) continue;
      const h = HEADER.exec(lines[i] as string);
      if (h === null) continue;
      claimed[i] = 1;
      let mark = "×";
      let message = "";
      for (let j = i + 1; j < Math.min(lines.length, i + 4); j++) {
        const m = MESSAGE.exec(lines[j] as string);
        if (m === null) continue;
        mark = m[1] as string;
        message = (m[2] as string).trim();
        claimed[j] = 1;
        break;
      }
      const category = h[4] as string;
      out.push({
        file: h[1] as string,
        line: int(h[2]),
        column: int(h[3]),
        severity:
          mark === "!" || mark === "⚠"
            ? "warning"
            : mark === "i" || mark === "ℹ"
              ? "info"
              : "error",
        code: category,
        message: category === "format" ? "not formatted as Biome would" : message || category,
        tool: "biome",
      });
    }
    return out;
  },
};

interface BiomeJson {
  diagnostics?: {
    severity?: string;
    message?: string;
    category?: string;
    location?: {
      path?: string;
      start?: { line?: number; column?: number };
      end?: { line?: number; column?: number };
    };
  }[];
}

export const biomeJson: OutputParser = {
  name: "biome-json",
  detect: (text) => text.includes('"diagnostics":[') && text.includes('"category":'),
  parse(lines, claimed) {
    const doc = jsonDocument(lines, claimed, "{") as BiomeJson | undefined;
    if (!Array.isArray(doc?.diagnostics)) return [];
    return doc.diagnostics.map((d): RawDiagnostic => {
      const start = d.location?.start;
      const end = d.location?.end;
      const category = d.category ?? "";
      return {
        file: d.location?.path ?? "",
        line: start?.line ?? 0,
        column: start?.column ?? 0,
        ...(end?.line ? { endLine: end.line } : {}),
        ...(end?.column ? { endColumn: end.column } : {}),
        severity:
          d.severity === "error" || d.severity === "fatal"
            ? "error"
            : d.severity === "warning"
              ? "warning"
              : "info",
        code: category,
        message: category === "format" ? "not formatted as Biome would" : (d.message ?? ""),
        tool: "biome",
      };
    });
  },
};
