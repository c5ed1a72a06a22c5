import { int, type OutputParser, type RawDiagnostic } from "../parser.ts";

// GitHub Actions workflow commands, which many tools print on request (biome
// --reporter=github, ruff --output-format github, golangci-lint's github-actions format):
// `::error file=src/a.ts,line=1,col=5,endLine=1,endColumn=9,title=rule::message`.
const COMMAND = /^::(error|warning|notice)(?: ([^:]*))?::(.*)$/;

function unescapeCommand(text: string): string {
  return text
    .replaceAll("%0D", "\r")
    .replaceAll("%0A", "\n")
    .replaceAll("%3A", ":")
    .replaceAll("%2C", ",")
    .replaceAll("%25", "%");
}

export const githubCommands: OutputParser = {
  name: "github",
  detect: (text) => text.includes("::") && /^::(?:error|warning|notice)[ :]/m.test(text),
  parse(lines, claimed) {
    const out: RawDiagnostic[] = [];
    for (let i = 0; i < lines.length; i++) {
      if (claimed[i]) continue;
      const m = COMMAND.exec(lines[i] as string);
      if (m === null) continue;
      claimed[i] = 1;
      const props = new Map<string, string>();
      for (const part of (m[2] ?? "").split(",")) {
        const eq = part.indexOf("=");
        if (eq > 0) props.set(part.slice(0, eq).trim(), unescapeCommand(part.slice(eq + 1)));
      }
      const endLine = int(props.get("endLine"));
      const endColumn = int(props.get("endColumn"));
      out.push({
        file: props.get("file") ?? "",
        line: int(props.get("line")),
        column: int(props.get("col")),
        ...(endLine > 0 ? { endLine } : {}),
        ...(endColumn > 0 ? { endColumn } : {}),
        severity: m[1] === "notice" ? "info" : (m[1] as "error" | "warning"),
        code: props.get("title") ?? "",
        message: unescapeCommand(m[3] as string),
        tool: "github",
      });
    }
    return out;
  },
};
