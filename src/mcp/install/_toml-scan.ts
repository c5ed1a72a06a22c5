/** Just enough TOML to edit one table in place, leaving every other byte alone. */
export type Statement =
  | { kind: "header"; path: string[]; array: boolean; from: number; to: number }
  | { kind: "key"; path: string[]; table: string[]; from: number; to: number };

export class TomlScanError extends Error {}

const BARE = /[A-Za-z0-9_-]/;

function lineOf(text: string, i: number): number {
  return text.slice(0, i).split("\n").length;
}

function readBasic(text: string, i: number): number {
  // i is just after the opening quote; returns the index after the closing quote
  while (i < text.length) {
    const c = text[i];
    if (c === "\\") i += 2;
    else if (c === '"') return i + 1;
    else if (c === "\n") throw new TomlScanError(`unterminated string on line ${lineOf(text, i)}`);
    else i++;
  }
  throw new TomlScanError("unterminated string at the end");
}

function readLiteral(text: string, i: number): number {
  const end = text.indexOf("'", i);
  const nl = text.indexOf("\n", i);
  if (end === -1 || (nl !== -1 && nl < end)) {
    throw new TomlScanError(`unterminated string on line ${lineOf(text, i)}`);
  }
  return end + 1;
}

function readMultiline(text: string, i: number, quote: '"' | "'"): number {
  const close = quote.repeat(3);
  while (i < text.length) {
    if (quote === '"' && text[i] === "\\") {
      i += 2;
      continue;
    }
    if (text.startsWith(close, i)) {
      i += 3;
      while (text[i] === quote) i++; // up to two quotes may end the content
      return i;
    }
    i++;
  }
  throw new TomlScanError("unterminated multi-line string");
}

/** Returns the index after it. */
function skipString(text: string, i: number): number {
  const q = text[i] as '"' | "'";
  if (text.startsWith(q.repeat(3), i)) return readMultiline(text, i + 3, q);
  return q === '"' ? readBasic(text, i + 1) : readLiteral(text, i + 1);
}

function skipSpaces(text: string, i: number): number {
  while (text[i] === " " || text[i] === "\t") i++;
  return i;
}

/** Parts unquoted. */
function readKey(text: string, start: number): { path: string[]; next: number } {
  const path: string[] = [];
  let i = start;
  for (;;) {
    i = skipSpaces(text, i);
    const c = text[i];
    if (c === '"') {
      const end = readBasic(text, i + 1);
      path.push(basicString(text.slice(i, end), lineOf(text, i)));
      i = end;
    } else if (c === "'") {
      const end = readLiteral(text, i + 1);
      path.push(text.slice(i + 1, end - 1));
      i = end;
    } else {
      const from = i;
      while (i < text.length && BARE.test(text[i] ?? "")) i++;
      if (i === from) throw new TomlScanError(`cannot read a key on line ${lineOf(text, start)}`);
      path.push(text.slice(from, i));
    }
    i = skipSpaces(text, i);
    if (text[i] !== ".") return { path, next: i };
    i++;
  }
}

/** The newline that ends the value (or the text's end). */
function skipValue(text: string, i: number): number {
  let depth = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '"' || c === "'") {
      i = skipString(text, i);
      continue;
    }
    if (c === "#") {
      const nl = text.indexOf("\n", i);
      i = nl === -1 ? text.length : nl;
      continue;
    }
    if (c === "[" || c === "{") depth++;
    else if (c === "]" || c === "}") depth--;
    else if (c === "\n" && depth <= 0) return i;
    i++;
  }
  return text.length;
}

function lineEnd(text: string, i: number): number {
  const nl = text.indexOf("\n", i);
  return nl === -1 ? text.length : nl + 1;
}

/** Throws TomlScanError. */
export function scanToml(text: string): Statement[] {
  const out: Statement[] = [];
  let table: string[] = [];
  let i = 0;
  while (i < text.length) {
    const from = i;
    i = skipSpaces(text, i);
    const c = text[i];
    if (c === "\n" || c === "\r") {
      i = lineEnd(text, i);
      continue;
    }
    if (c === "#") {
      i = lineEnd(text, i);
      continue;
    }
    if (c === "[") {
      const array = text[i + 1] === "[";
      const key = readKey(text, i + (array ? 2 : 1));
      const close = array ? "]]" : "]";
      if (!text.startsWith(close, key.next)) {
        throw new TomlScanError(`cannot read the table header on line ${lineOf(text, from)}`);
      }
      const to = lineEnd(text, key.next);
      out.push({ kind: "header", path: key.path, array, from, to });
      table = key.path;
      i = to;
      continue;
    }
    const key = readKey(text, i);
    if (text[key.next] !== "=") {
      throw new TomlScanError(`expected "=" after the key on line ${lineOf(text, from)}`);
    }
    const end = skipValue(text, key.next + 1);
    const to = end >= text.length ? text.length : end + 1;
    out.push({ kind: "key", path: key.path, table, from, to });
    i = to;
  }
  return out;
}

/** JSON's escapes plus `\UXXXXXXXX` and `\e`, which JSON.parse does not know. */
function basicString(quoted: string, line: number): string {
  const jsonish = quoted
    .replace(/\\U([0-9A-Fa-f]{8})/g, (_m, hex: string) => {
      const code = Number.parseInt(hex, 16);
      return code <= 0x10ffff ? JSON.stringify(String.fromCodePoint(code)).slice(1, -1) : "\uFFFD";
    })
    .replace(/\\e/g, "\\u001b");
  try {
    return JSON.parse(jsonish) as string;
  } catch {
    throw new TomlScanError(`a quoted key on line ${line} has an escape cpilot cannot read`);
  }
}
