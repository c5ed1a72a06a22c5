export type OpenTag =
  | { kind: "ok"; attributes: Map<string, string>; end: number; selfClosing: boolean }
  | { kind: "bad"; message: string }
  | { kind: "incomplete" };

const NAME = /[A-Za-z_][\w.:-]*/y;
const UNQUOTED = /[^\s"'=<>`]+/y;
const SPACE = /[ \t\r\n]*/y;

const ENTITIES: Record<string, string> = {
  "&quot;": '"',
  "&apos;": "'",
  "&#39;": "'",
  "&lt;": "<",
  "&gt;": ">",
  "&amp;": "&",
};

function decode(value: string): string {
  return value.replace(/&(?:quot|apos|#39|lt|gt|amp);/g, (entity) => ENTITIES[entity] ?? entity);
}

function skipSpace(text: string, at: number): number {
  SPACE.lastIndex = at;
  SPACE.exec(text);
  return SPACE.lastIndex;
}

function readValue(
  text: string,
  at: number,
  name: string,
): { value: string; end: number } | { message: string } | null {
  const quote = text[at];
  if (quote === '"' || quote === "'") {
    const close = text.indexOf(quote, at + 1);
    const newline = text.indexOf("\n", at + 1);
    if (newline !== -1 && (close === -1 || newline < close)) {
      return { message: `the value of ${name} has no closing ${quote} on its line` };
    }
    if (close === -1) return null;
    return { value: text.slice(at + 1, close), end: close + 1 };
  }
  UNQUOTED.lastIndex = at;
  const match = UNQUOTED.exec(text);
  if (!match) return { message: `${name}= has no value` };
  const end = at + match[0].length;
  return end >= text.length ? null : { value: match[0], end };
}

/**
 * Values may be double-quoted, single-quoted or bare. "incomplete": the text ended inside
 * the tag (a log still being written); "bad": it can never become a tag.
 */
export function readOpenTag(text: string, at: number): OpenTag {
  const attributes = new Map<string, string>();
  let i = at;
  for (;;) {
    i = skipSpace(text, i);
    if (i >= text.length) return { kind: "incomplete" };
    const c = text[i];
    if (c === ">") return { kind: "ok", attributes, end: i + 1, selfClosing: false };
    if (c === "/") {
      if (i + 1 >= text.length) return { kind: "incomplete" };
      if (text[i + 1] === ">") return { kind: "ok", attributes, end: i + 2, selfClosing: true };
      return { kind: "bad", message: 'unexpected "/" in the opening tag' };
    }
    NAME.lastIndex = i;
    const name = NAME.exec(text)?.[0];
    if (name === undefined) return { kind: "bad", message: `unexpected "${c}" in the opening tag` };
    i = skipSpace(text, i + name.length);
    if (i >= text.length) return { kind: "incomplete" };
    if (text[i] !== "=") return { kind: "bad", message: `attribute ${name} has no value` };
    i = skipSpace(text, i + 1);
    if (i >= text.length) return { kind: "incomplete" };
    const read = readValue(text, i, name);
    if (read === null) return { kind: "incomplete" };
    if ("message" in read) return { kind: "bad", message: read.message };
    const key = name.toLowerCase();
    if (attributes.has(key)) return { kind: "bad", message: `attribute ${key} is given twice` };
    attributes.set(key, decode(read.value));
    i = read.end;
  }
}
