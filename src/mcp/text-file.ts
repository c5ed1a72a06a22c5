import { readFileIn, type Target } from "../util/contained-write.ts";
import { decodeUtf8, splitBom, type Utf8Text, withBom } from "../util/utf8-text.ts";

/**
 * How a text file is laid out on disk, so a write can keep it: a UTF-8 BOM, its line
 * ending (null when it has no line break to tell), and whether it ends with a newline.
 */
export interface TextShape {
  readonly bom: boolean;
  readonly eol: "\n" | "\r\n" | "mixed" | null;
  readonly finalNewline: boolean;
  /** An empty file has no final-newline state to keep. */
  readonly hasContent: boolean;
}

/** A file as the agent sees it: BOM dropped and, in a CRLF file, every CRLF read as LF. */
export interface AgentText {
  readonly text: string;
  readonly shape: TextShape;
}

/** The agent should not hold larger files whole. */
export const MAX_TEXT_BYTES = 10 * 1024 * 1024;

export type Unreadable = { kind: "missing" } | { kind: "not-text"; reason: string };

/** null when not text. */
export function decodeText(data: Uint8Array): AgentText | null {
  if (data.subarray(0, 8192).includes(0)) return null;
  const decoded = decodeUtf8(data);
  return decoded === null ? null : agentSpace(decoded);
}

export function toAgentSpace(raw: string): AgentText {
  return agentSpace(splitBom(raw));
}

function agentSpace({ text: body, bom }: Utf8Text): AgentText {
  const crlf = body.split("\r\n").length - 1;
  const lf = body.split("\n").length - 1 - crlf;
  const eol = crlf === 0 && lf === 0 ? null : crlf === 0 ? "\n" : lf === 0 ? "\r\n" : "mixed";
  const text = eol === "\r\n" ? body.replaceAll("\r\n", "\n") : body;
  return {
    text,
    shape: { bom, eol, finalNewline: body.endsWith("\n"), hasContent: body.length > 0 },
  };
}

/**
 * Bring text the agent sent into the file's agent space: in a file with one kind of line
 * ending, CRLF the agent sent reads as LF (it is written back in the file's own ending).
 */
export function fromAgent(text: string, shape: TextShape | null): string {
  if (shape === null || shape.eol === "mixed") return text;
  return text.replaceAll("\r\n", "\n");
}

/** When the agent's new text differs only there. */
export function keepFinalNewline(text: string, shape: TextShape | null): string {
  if (shape === null || !shape.hasContent || text === "") return text;
  if (shape.finalNewline && !text.endsWith("\n")) return `${text}\n`;
  if (!shape.finalNewline && text.endsWith("\n")) return text.slice(0, -1);
  return text;
}

export function toDiskSpace(text: string, shape: TextShape | null): string {
  if (shape === null) return text;
  const body = shape.eol === "\r\n" ? text.replace(/\r?\n/g, "\r\n") : text;
  return withBom(body, shape.bom);
}

/** Through its held, checked folder, not a symlink put at its name since. */
export function readAgentText(target: Target): AgentText | Unreadable {
  const read = readFileIn(target.dir, target.name, MAX_TEXT_BYTES);
  switch (read.kind) {
    case "ok":
      return (
        decodeText(read.bytes) ?? { kind: "not-text", reason: "it is not UTF-8 text (binary?)" }
      );
    case "missing":
      return { kind: "missing" };
    case "directory":
      return { kind: "not-text", reason: "it is a directory" };
    case "too-big":
      return {
        kind: "not-text",
        reason: `it is ${read.size} bytes, over the ${MAX_TEXT_BYTES}-byte limit for text edits`,
      };
    case "error":
      return { kind: "not-text", reason: read.message };
    default:
      return { kind: "not-text", reason: "it is not a regular file" };
  }
}

/** 1-based. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  let i = text.indexOf("\n");
  while (i !== -1 && i < offset) {
    line++;
    i = text.indexOf("\n", i + 1);
  }
  return line;
}
