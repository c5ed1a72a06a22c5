import { findBlockEnd } from "./_block-end.ts";
import { readOpenTag } from "./_open-tag.ts";
import { MAX_BLOCK_BYTES, mib } from "./limits.ts";
import type { ParseError, ParseResult, UpdateCommand } from "./types.ts";

const OPEN = /<context-update(?=[\s/>]|$)/gi;
const OPEN_TEXT = "<context-update";
const KNOWN = new Set(["file", "action", "section", "id"]);

export interface ScanResult extends ParseResult {
  /** Later text may still become (part of) a block. */
  consumed: number;
}

export interface ScanOptions {
  /** An unclosed block is an error, not "wait for more". */
  final: boolean;
  /** For a tail of a log. Default 1. */
  firstLine?: number;
}

/** Counts lines up to increasing indexes without rescanning from the start. */
function lineCounter(text: string, firstLine: number): (index: number) => number {
  let at = 0;
  let line = firstLine;
  return (index) => {
    if (index < at) {
      at = 0;
      line = firstLine;
    }
    for (let i = text.indexOf("\n", at); i !== -1 && i < index; i = text.indexOf("\n", i + 1)) {
      line++;
      at = i + 1;
    }
    return line;
  };
}

function trimBlankLines(content: string): string {
  const lines = content.split(/\r?\n/);
  while (lines.length > 0 && (lines[0] ?? "").trim() === "") lines.shift();
  while (lines.length > 0 && (lines.at(-1) ?? "").trim() === "") lines.pop();
  return lines.join("\n");
}

function toCommand(attributes: Map<string, string>, content: string, line: number): UpdateCommand {
  const command: UpdateCommand = {
    file: attributes.get("file") ?? "",
    action: attributes.get("action") ?? "",
    content: trimBlankLines(content),
    line,
  };
  const section = attributes.get("section");
  const id = attributes.get("id");
  if (section !== undefined) command.section = section;
  if (id !== undefined) command.id = id;
  const unknown = [...attributes.keys()].filter((name) => !KNOWN.has(name));
  if (unknown.length > 0) command.unknownAttributes = unknown;
  return command;
}

/** A trailing prefix of `<context-update` may still grow. */
function settledEnd(text: string, from: number): number {
  const start = Math.max(from, text.length - OPEN_TEXT.length);
  for (let i = start; i < text.length; i++) {
    if (text[i] === "<" && OPEN_TEXT.startsWith(text.slice(i).toLowerCase())) return i;
  }
  return text.length;
}

/**
 * Broken blocks become errors with their line; the blocks around them still count. With
 * `final: false` (a log still being written) an unclosed block at the end waits:
 * `consumed` says where the unsettled tail starts.
 */
export function scanUpdates(text: string, options: ScanOptions): ScanResult {
  const lineOf = lineCounter(text, options.firstLine ?? 1);
  const updates: UpdateCommand[] = [];
  const errors: ParseError[] = [];
  const fail = (at: number, message: string, hint?: string) => {
    errors.push(
      hint === undefined ? { line: lineOf(at), message } : { line: lineOf(at), message, hint },
    );
  };
  let pos = 0;
  for (;;) {
    OPEN.lastIndex = pos;
    const match = OPEN.exec(text);
    if (!match)
      return { updates, errors, consumed: options.final ? text.length : settledEnd(text, pos) };
    const start = match.index;
    const afterName = start + match[0].length;
    if (start > 0 && text[start - 1] === "`") {
      pos = afterName; // a mention in inline code, not a block
      continue;
    }
    const tag = readOpenTag(text, afterName);
    if (tag.kind === "incomplete") {
      if (!options.final) return { updates, errors, consumed: start };
      fail(start, "the opening <context-update tag is never closed with >");
      pos = afterName;
      continue;
    }
    if (tag.kind === "bad") {
      fail(
        start,
        `malformed <context-update> tag: ${tag.message}`,
        'write attributes as name="value"',
      );
      pos = afterName;
      continue;
    }
    if (tag.selfClosing) {
      updates.push(toCommand(tag.attributes, "", lineOf(start)));
      pos = tag.end;
      continue;
    }
    const end = findBlockEnd(text, tag.end, options.final);
    if (end.kind === "closed" && end.contentEnd - tag.end > MAX_BLOCK_BYTES) {
      // Not copied, trimmed or diffed: a block this big is a mistake and would cost its size many
      // times.
      fail(
        start,
        `<context-update> block is too big: ${mib(end.contentEnd - tag.end)}, over the ${mib(MAX_BLOCK_BYTES)} limit for one block`,
        "keep each block to a few entries; context files are notes, not data",
      );
      pos = end.end;
    } else if (end.kind === "closed") {
      updates.push(toCommand(tag.attributes, text.slice(tag.end, end.contentEnd), lineOf(start)));
      pos = end.end;
    } else if (end.kind === "interrupted") {
      fail(
        start,
        `<context-update> is never closed: another one starts at line ${lineOf(end.at)}`,
        "end each block with </context-update>",
      );
      pos = end.at;
    } else if (options.final) {
      fail(start, "<context-update> is never closed", "end the block with </context-update>");
      return { updates, errors, consumed: text.length };
    } else {
      return { updates, errors, consumed: start };
    }
  }
}

/**
 * In any text: agent output, a transcript, a log.
 *
 * @example
 * const { updates, errors } = parseUpdates(agentReply);
 * // updates: [{ file: "TASKS.md", action: "complete", id: "Write tests", content: "", line: 12 }]
 */
export function parseUpdates(text: string): ParseResult {
  const { updates, errors } = scanUpdates(text, { final: true });
  return { updates, errors };
}
