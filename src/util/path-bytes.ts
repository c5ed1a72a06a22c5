import { Buffer } from "node:buffer";

// A file name is bytes. Bytes that are not valid UTF-8 are kept as lone surrogates U+DC00 +
// byte (Python's "surrogateescape", PEP 383), so a name survives from git or a hook payload
// to a callback's argv unchanged. In JSON such a byte shows as `\udcXX`.

const strict = new TextDecoder("utf-8", { fatal: true });

export function decodeBytes(bytes: Uint8Array): string {
  try {
    return strict.decode(bytes);
  } catch {
    return decodeEscaping(bytes);
  }
}

function decodeEscaping(b: Uint8Array): string {
  let out = "";
  let i = 0;
  while (i < b.length) {
    const c = b[i] as number;
    const n =
      c < 0x80
        ? 1
        : c >= 0xc2 && c <= 0xdf
          ? 2
          : c >= 0xe0 && c <= 0xef
            ? 3
            : c >= 0xf0 && c <= 0xf4
              ? 4
              : 0;
    if (n > 0 && i + n <= b.length && validSequence(b, i, n)) {
      out += strict.decode(b.subarray(i, i + n));
      i += n;
    } else {
      out += String.fromCharCode(0xdc00 + c);
      i += 1;
    }
  }
  return out;
}

function validSequence(b: Uint8Array, i: number, n: number): boolean {
  if (n === 1) return true;
  const c = b[i] as number;
  const d = b[i + 1] as number;
  let lo = 0x80;
  let hi = 0xbf;
  if (c === 0xe0) lo = 0xa0;
  else if (c === 0xed) hi = 0x9f;
  else if (c === 0xf0) lo = 0x90;
  else if (c === 0xf4) hi = 0x8f;
  if (d < lo || d > hi) return false;
  for (let k = 2; k < n; k++) {
    const e = b[i + k] as number;
    if (e < 0x80 || e > 0xbf) return false;
  }
  return true;
}

const ESCAPED_BYTE = /[\udc80-\udcff]/;

export function hasEscapedBytes(s: string): boolean {
  return ESCAPED_BYTE.test(s);
}

export function encodeBytes(s: string): Buffer {
  if (!hasEscapedBytes(s)) return Buffer.from(s, "utf8");
  const parts: Buffer[] = [];
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const u = s.charCodeAt(i);
    // a lone low surrogate in the escape range (not the second half of a pair)
    if (u >= 0xdc80 && u <= 0xdcff && !(i > 0 && isHigh(s.charCodeAt(i - 1)))) {
      parts.push(Buffer.from(s.slice(start, i), "utf8"), Buffer.from([u - 0xdc00]));
      start = i + 1;
    }
  }
  parts.push(Buffer.from(s.slice(start), "utf8"));
  return Buffer.concat(parts);
}

function isHigh(u: number): boolean {
  return u >= 0xd800 && u <= 0xdbff;
}

export function fsPath(s: string): string | Buffer {
  return hasEscapedBytes(s) ? encodeBytes(s) : s;
}

/** Stands in for a kept byte while a path goes through node:path (see viaPathModule). */
const MARK = "\uf8ff";

/** Bun's node:path works on UTF-8 and would make kept bytes U+FFFD: they travel as MARK + two hex digits. */
export function viaPathModule(s: string, compute: (safe: string) => string | null): string | null {
  if (!hasEscapedBytes(s)) return compute(s);
  let safe = "";
  for (let i = 0; i < s.length; i++) {
    const ch = s[i] as string;
    const u = ch.charCodeAt(0);
    if (ch === MARK) safe += MARK + MARK;
    else if (u >= 0xdc80 && u <= 0xdcff && !(i > 0 && isHigh(s.charCodeAt(i - 1)))) {
      safe += MARK + (u - 0xdc00).toString(16).padStart(2, "0");
    } else safe += ch;
  }
  const out = compute(safe);
  if (out === null) return null;
  let back = "";
  for (let i = 0; i < out.length; i++) {
    const ch = out[i] as string;
    if (ch !== MARK) back += ch;
    else if (out[i + 1] === MARK) {
      back += MARK;
      i += 1;
    } else {
      back += String.fromCharCode(0xdc00 + Number.parseInt(out.slice(i + 1, i + 3), 16));
      i += 2;
    }
  }
  return back;
}
