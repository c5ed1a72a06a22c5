import { sha1Hex } from "../platform/digest.ts";
import { writeFileAtomic } from "../util/atomic-write.ts";
import { appendStateFile, readStateFile } from "../util/state-file.ts";

/**
 * A record file that says when it was edited by other hands: its first line is the digest
 * of its content, then the content; each line appended later carries its own digest. The
 * digest is no secret (the agent's shell runs as the person): it tells a record rewritten
 * by a command that did not recompute it (sed, a hand edit, a truncation) from cpilot's own.
 */

export type Sealed<T> =
  | { readonly kind: "none" }
  | { readonly kind: "forged" }
  | { readonly kind: "ok"; readonly value: T; readonly lines: readonly unknown[] };

const MAX_RECORD = 64 * 1024 * 1024;

/** Whole, atomically: readers see the old record or the new one. */
export function writeSealed(path: string, value: unknown): void {
  const text = JSON.stringify(value);
  writeFileAtomic(path, `${sha1Hex(text)} ${text}`, { durable: false });
}

/** Appended lines' values in order; a line cut short by a crash is skipped. */
export function readSealed<T>(path: string): Sealed<T> {
  const text = readStateFile(path, MAX_RECORD);
  if (text === null) return { kind: "none" };
  const [first = "", ...rest] = text.split("\n");
  const space = first.indexOf(" ");
  const body = first.slice(space + 1);
  if (space !== 40 || sha1Hex(body) !== first.slice(0, space)) return { kind: "forged" };
  const value = parsed(body);
  if (value === undefined) return { kind: "forged" };
  const lines: unknown[] = [];
  for (const line of rest) {
    const space = line.indexOf(" ");
    const item = line.slice(space + 1);
    if (space === 40 && sha1Hex(item) === line.slice(0, space)) {
      const v = parsed(item);
      if (v !== undefined) lines.push(v);
    } else if (isObject(parsed(line.slice(space + 1))) || isObject(parsed(line))) {
      // Whole and readable, yet not sealed: written by other hands.
      return { kind: "forged" };
    }
  }
  return { kind: "ok", value: value as T, lines };
}

/** Each line starts with its own newline: a line cut short before it stays one bad line. */
export function appendSealed(path: string, values: readonly unknown[]): void {
  let lines = "";
  for (const value of values) {
    const text = JSON.stringify(value);
    lines += `\n${sha1Hex(text)} ${text}`;
  }
  appendStateFile(path, lines);
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const isObject = (v: unknown): boolean => typeof v === "object" && v !== null;
