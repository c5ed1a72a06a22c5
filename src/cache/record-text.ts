import { decodeBytes } from "../util/path-bytes.ts";
import { asCheckRecord, asRecordHead, type CheckRecord, isReadMap } from "./store.ts";

// A record on disk is two JSON lines: every field but `read`, then `read`. A replay needs only
// the first, and `read` (an id per file the run was given) is most of a large check's record,
// so it is parsed when someone asks for it. JSON text never holds a raw newline, so the first
// newline ends the first line.

const NEWLINE = 0x0a;

/** The text kept for `record`: its other fields on the first line, `read` on the second. */
export function recordText(record: CheckRecord): string {
  const { read, ...head } = record;
  return `${JSON.stringify(head)}\n${JSON.stringify(read)}\n`;
}

/**
 * The record kept as `bytes` under `key` (see recordText; one JSON object, as written before,
 * is read too), or undefined when it is not one. A `read` line that is torn or not a map of
 * ids reads as empty: no file is then taken as found clean.
 */
export function parseRecordText(bytes: Uint8Array, key: string): CheckRecord | undefined {
  const newline = bytes.indexOf(NEWLINE);
  try {
    if (newline === -1) return asCheckRecord(JSON.parse(decodeBytes(bytes)), key);
    const head = asRecordHead(JSON.parse(decodeBytes(bytes.subarray(0, newline))), key);
    if (head === undefined) return undefined;
    let read: Readonly<Record<string, string>> | undefined;
    Object.defineProperty(head, "read", {
      enumerable: true,
      configurable: true,
      get() {
        read ??= readLine(bytes.subarray(newline + 1));
        return read;
      },
    });
    return head as CheckRecord;
  } catch {
    return undefined;
  }
}

function readLine(bytes: Uint8Array): Readonly<Record<string, string>> {
  try {
    const value: unknown = JSON.parse(decodeBytes(bytes));
    return isReadMap(value) ? value : {};
  } catch {
    return {};
  }
}
