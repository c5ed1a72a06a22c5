import { int, type OutputParser, type RawDiagnostic } from "../parser.ts";
import { severityOf } from "../severity.ts";

// `error[E0425]: cannot find value `y` in this scope` then ` --> src/lib.rs:3:16`; a lint's
// name is in a note below (`#[warn(unused_variables)]`, `#[warn(clippy::needless_return)]`).
const HEADER = /^(error|warning)(?:\[([A-Za-z0-9_:]+)\])?: (.*)$/;
const ARROW = /^\s*--> (.+?):(\d+):(\d+)\s*$/;
const LINT = /#\[(?:warn|deny|forbid)\(([\w:]+)\)\]/;

export const rustc: OutputParser = {
  name: "rustc",
  detect: (text) =>
    text.includes("--> ") && /^(?:error|warning)(?:\[[\w:]+\])?: .*\n\s*--> /m.test(text),
  parse(lines, claimed) {
    const out: RawDiagnostic[] = [];
    for (let i = 0; i + 1 < lines.length; i++) {
      if (claimed[i]) continue;
      const h = HEADER.exec(lines[i] as string);
      if (h === null) continue;
      const at = ARROW.exec(lines[i + 1] as string);
      if (at === null) continue;
      claimed[i] = 1;
      claimed[i + 1] = 1;
      let code = h[2] ?? "";
      for (let j = i + 2; j < lines.length && (lines[j] as string).trim() !== ""; j++) {
        const lint = LINT.exec(lines[j] as string);
        if (lint !== null && code === "") code = lint[1] as string;
        const clippy = /rust-clippy\/[^#\s]*#([a-z_]+)/.exec(lines[j] as string);
        if (clippy !== null && code === "") code = `clippy::${clippy[1]}`;
        claimed[j] = 1;
      }
      out.push({
        file: at[1] as string,
        line: int(at[2]),
        column: int(at[3]),
        severity: severityOf(h[1]),
        code,
        message: h[3] as string,
        tool: code.startsWith("clippy::") ? "clippy" : "rustc",
      });
    }
    return out;
  },
};

interface RustSpan {
  file_name?: string;
  line_start?: number;
  column_start?: number;
  line_end?: number;
  column_end?: number;
  is_primary?: boolean;
}
interface RustMessage {
  level?: string;
  message?: string;
  code?: { code?: string } | null;
  spans?: RustSpan[];
}

/** `cargo … --message-format json` (and rustc's `--error-format json`): one JSON object a line. */
export const rustJson: OutputParser = {
  name: "rust-json",
  detect: (text) =>
    text.includes('{"') && /^\{"(?:reason|\$message_type|message|rendered)"/m.test(text),
  parse(lines, claimed) {
    const out: RawDiagnostic[] = [];
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i] as string;
      if (claimed[i] || !line.startsWith("{")) continue;
      let value: { reason?: string; message?: RustMessage } & RustMessage;
      try {
        value = JSON.parse(line);
      } catch {
        continue;
      }
      claimed[i] = 1;
      const msg: RustMessage | undefined =
        value.reason === "compiler-message" ? value.message : value.reason ? undefined : value;
      const span = msg?.spans?.find((s) => s.is_primary) ?? msg?.spans?.[0];
      if (msg === undefined || span === undefined) continue;
      const code = msg.code?.code ?? "";
      out.push({
        file: span.file_name ?? "",
        line: span.line_start ?? 0,
        column: span.column_start ?? 0,
        ...(span.line_end ? { endLine: span.line_end } : {}),
        ...(span.column_end ? { endColumn: span.column_end } : {}),
        severity: severityOf(msg.level),
        code,
        message: msg.message ?? "",
        tool: code.startsWith("clippy::") ? "clippy" : "rustc",
      });
    }
    return out;
  },
};
