import { CpilotError } from "../../util/errors.ts";
import { type Statement, scanToml, TomlScanError } from "./_toml-scan.ts";
import type { EntryAction } from "./json-servers.ts";

export interface TomlServer {
  readonly command: string;
  readonly args: readonly string[];
}

const startsWith = (path: readonly string[], prefix: readonly string[]): boolean =>
  prefix.every((part, i) => path[i] === part);

function scan(text: string, file: string): Statement[] {
  try {
    return scanToml(text);
  } catch (err) {
    if (!(err instanceof TomlScanError)) throw err;
    throw new CpilotError(`Cannot edit "${file}": ${err.message}`, {
      hint: "fix the TOML, or add the [mcp_servers.cpilot] table by hand",
    });
  }
}

/** They would clash with a table. */
function assertNoOtherForm(statements: Statement[], name: string, file: string): void {
  const ours = ["mcp_servers", name];
  for (const s of statements) {
    if (s.kind === "header" && s.array && startsWith(s.path, ours)) {
      throw new CpilotError(
        `Cannot edit "${file}": [[mcp_servers.${name}]] is an array of tables`,
        {
          hint: `edit the ${name} entry in ${file} by hand`,
        },
      );
    }
    if (s.kind !== "key" || startsWith(s.table, ours)) continue;
    const full = [...s.table, ...s.path];
    if (startsWith(full, ours) || (full.length === 1 && full[0] === "mcp_servers")) {
      throw new CpilotError(
        `Cannot edit "${file}": the ${name} MCP server is written as a dotted key or inline table there`,
        {
          hint: `edit it by hand, or turn it into a [mcp_servers.${name}] table`,
        },
      );
    }
  }
}

const quote = (s: string): string => JSON.stringify(s);

function lines(server: TomlServer): { command: string; args: string } {
  return {
    command: `command = ${quote(server.command)}\n`,
    args: `args = [${server.args.map(quote).join(", ")}]\n`,
  };
}

/** Only that table's `command` and `args` lines change; everything else stays byte for byte. */
export function upsertTomlServer(
  text: string,
  name: string,
  server: TomlServer,
  file = "config.toml",
): { text: string; action: EntryAction } {
  const statements = scan(text, file);
  assertNoOtherForm(statements, name, file);
  const want = lines(server);
  const header = statements.find(
    (s) =>
      s.kind === "header" &&
      !s.array &&
      s.path.length === 2 &&
      startsWith(s.path, ["mcp_servers", name]),
  );
  if (header === undefined) {
    const block = `[mcp_servers.${name}]\n${want.command}${want.args}`;
    if (text.trim() === "") return { text: block, action: "created" };
    const base = text.endsWith("\n") ? text : `${text}\n`;
    return { text: `${base}\n${block}`, action: "updated" };
  }
  const index = statements.indexOf(header);
  const next = statements.slice(index + 1).find((s) => s.kind === "header");
  const inside = statements
    .slice(index + 1, next === undefined ? undefined : statements.indexOf(next))
    .filter((s): s is Extract<Statement, { kind: "key" }> => s.kind === "key");
  const edits: { from: number; to: number; text: string }[] = [];
  const missing: string[] = [];
  for (const key of ["command", "args"] as const) {
    const found = inside.find((s) => s.path.length === 1 && s.path[0] === key);
    if (found === undefined) missing.push(want[key]);
    else edits.push({ from: found.from, to: found.to, text: want[key] });
  }
  if (missing.length > 0) {
    const headerLine = text.slice(header.from, header.to);
    const sep = headerLine.endsWith("\n") ? "" : "\n";
    edits.push({ from: header.to, to: header.to, text: sep + missing.join("") });
  }
  let out = text;
  for (const e of edits.sort((a, b) => b.from - a.from)) {
    out = out.slice(0, e.from) + e.text + out.slice(e.to);
  }
  return { text: out, action: out === text ? "unchanged" : "updated" };
}

/** With its subtables, nothing else; comments and blanks after its last key stay. */
export function removeTomlServer(
  text: string,
  name: string,
  file = "config.toml",
): { text: string; action: EntryAction } {
  const statements = scan(text, file);
  assertNoOtherForm(statements, name, file);
  const ranges: { from: number; to: number }[] = [];
  statements.forEach((s, i) => {
    if (s.kind !== "header" || !startsWith(s.path, ["mcp_servers", name])) return;
    let to = s.to;
    for (const later of statements.slice(i + 1)) {
      if (later.kind === "header") break;
      to = later.to;
    }
    let from = s.from;
    // Take the blank line that separated the table from what came before.
    if (from >= 2 && text[from - 1] === "\n" && text[from - 2] === "\n") from -= 1;
    ranges.push({ from, to });
  });
  if (ranges.length === 0) return { text, action: "absent" };
  let out = text;
  const atTop = ranges[0]?.from === 0;
  for (const r of ranges.reverse()) out = out.slice(0, r.from) + out.slice(r.to);
  if (atTop) out = out.replace(/^\n+/, "");
  return { text: out, action: "removed" };
}
