/**
 * A lenient parser from regex source to the tree backtracking analysis needs; approximate
 * where ./regex-safety.ts does not care (a backreference or `\p{…}` is "any character").
 */

/** Sorted, disjoint, inclusive code point ranges. */
export type CharSet = readonly (readonly [number, number])[];

export type RegexNode =
  | { readonly t: "set"; readonly set: CharSet }
  | { readonly t: "empty" }
  | { readonly t: "look"; readonly inner: RegexNode }
  | { readonly t: "any" }
  | { readonly t: "seq"; readonly items: readonly RegexNode[] }
  | { readonly t: "alt"; readonly alts: readonly RegexNode[] }
  | { readonly t: "rep"; readonly node: RegexNode; readonly min: number; readonly max: number };

const MAX_CP = 0x10ffff;
export const ALL: CharSet = [[0, MAX_CP]];
const DIGIT: CharSet = [[48, 57]];
const WORD: CharSet = [
  [48, 57],
  [65, 90],
  [95, 95],
  [97, 122],
];
const SPACE: CharSet = normalize([
  [9, 13],
  [32, 32],
  [160, 160],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
]);
const LINE_ENDS: CharSet = [
  [10, 10],
  [13, 13],
  [0x2028, 0x2029],
];

export function normalize(ranges: readonly (readonly [number, number])[]): CharSet {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  for (const [lo, hi] of sorted) {
    const last = out[out.length - 1];
    if (last && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else out.push([lo, hi]);
  }
  return out;
}

export function complement(set: CharSet): CharSet {
  const out: [number, number][] = [];
  let next = 0;
  for (const [lo, hi] of set) {
    if (lo > next) out.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next <= MAX_CP) out.push([next, MAX_CP]);
  return out;
}

export function intersects(a: CharSet, b: CharSet): boolean {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i] as readonly [number, number];
    const y = b[j] as readonly [number, number];
    if (x[1] < y[0]) i++;
    else if (y[1] < x[0]) j++;
    else return true;
  }
  return false;
}

/** Add the other case of ASCII letters (the `i` flag). */
function foldCase(set: CharSet): CharSet {
  const extra: [number, number][] = [];
  for (const [lo, hi] of set) {
    for (const [from, to] of [
      [65, 90, 32],
      [97, 122, -32],
    ] as const) {
      const a = Math.max(lo, from);
      const b = Math.min(hi, to);
      if (a <= b) extra.push([a + (to === 90 ? 32 : -32), b + (to === 90 ? 32 : -32)]);
    }
  }
  return normalize([...set, ...extra]);
}

export function parseRegex(source: string, flags: string): RegexNode {
  let pos = 0;
  const fold = flags.includes("i");
  const dot: CharSet = flags.includes("s") ? ALL : complement(LINE_ENDS);
  const chars = [...source];
  const peek = (k = 0): string | undefined => chars[pos + k];
  const set = (s: CharSet): RegexNode => ({ t: "set", set: fold ? foldCase(s) : s });
  const one = (c: string): CharSet => {
    const cp = c.codePointAt(0) ?? 0;
    return [[cp, cp]];
  };

  const readHex = (len: number): number | null => {
    const text = chars.slice(pos, pos + len).join("");
    if (text.length !== len || !/^[0-9a-fA-F]+$/.test(text)) return null;
    pos += len;
    return Number.parseInt(text, 16);
  };

  const readEscape = (inClass: boolean): CharSet | "empty" | "any" => {
    const c = chars[pos++] ?? "\\";
    switch (c) {
      case "d":
        return DIGIT;
      case "D":
        return complement(DIGIT);
      case "w":
        return WORD;
      case "W":
        return complement(WORD);
      case "s":
        return SPACE;
      case "S":
        return complement(SPACE);
      case "b":
        return inClass ? one("\b") : "empty";
      case "B":
        return "empty";
      case "n":
        return one("\n");
      case "r":
        return one("\r");
      case "t":
        return one("\t");
      case "f":
        return one("\f");
      case "v":
        return one("\v");
      case "0":
        return [[0, 0]];
      case "p":
      case "P":
        if (peek() === "{") while (pos < chars.length && chars[pos++] !== "}");
        return ALL;
      case "k":
        if (peek() === "<") while (pos < chars.length && chars[pos++] !== ">");
        return "any";
      case "c": {
        const letter = chars[pos++] ?? "@";
        const cp = (letter.codePointAt(0) ?? 0) % 32;
        return [[cp, cp]];
      }
      case "x": {
        const cp = readHex(2);
        return cp === null ? one("x") : [[cp, cp]];
      }
      case "u": {
        if (peek() === "{") {
          const end = chars.indexOf("}", pos);
          const cp = Number.parseInt(chars.slice(pos + 1, end).join(""), 16);
          pos = end + 1;
          return Number.isNaN(cp) ? one("u") : [[cp, cp]];
        }
        const cp = readHex(4);
        return cp === null ? one("u") : [[cp, cp]];
      }
      default:
        if (/[1-9]/.test(c) && !inClass) {
          while (/[0-9]/.test(peek() ?? "")) pos++;
          return "any";
        }
        return one(c);
    }
  };

  const charClass = (): RegexNode => {
    const negate = peek() === "^";
    if (negate) pos++;
    const ranges: (readonly [number, number])[] = [];
    while (pos < chars.length && peek() !== "]") {
      let lo: CharSet | "empty" | "any";
      const c = chars[pos++] as string;
      if (c === "\\") lo = readEscape(true);
      else if (c === "[") {
        // a nested class (v flag): approximate as anything
        let depth = 1;
        while (pos < chars.length && depth > 0) {
          const d = chars[pos++];
          if (d === "\\") pos++;
          else if (d === "[") depth++;
          else if (d === "]") depth--;
        }
        lo = ALL;
      } else lo = one(c);
      const loSet = typeof lo === "string" ? ALL : lo;
      if (peek() === "-" && peek(1) !== "]" && peek(1) !== undefined && loSet.length === 1) {
        pos++;
        const d = chars[pos++] as string;
        const hi = d === "\\" ? readEscape(true) : one(d);
        const hiSet = typeof hi === "string" ? ALL : hi;
        const a = loSet[0]?.[0] ?? 0;
        const b = hiSet.length === 1 ? (hiSet[0]?.[1] ?? MAX_CP) : MAX_CP;
        if (hiSet.length === 1 && a <= b) ranges.push([a, b]);
        else ranges.push(...loSet, ...hiSet, [45, 45]);
        continue;
      }
      ranges.push(...loSet);
    }
    pos++; // the closing ]
    const s = normalize(ranges);
    return set(negate ? complement(fold ? foldCase(s) : s) : s);
  };

  const atom = (): RegexNode => {
    const c = chars[pos++] as string;
    if (c === "(") {
      let look = false;
      if (peek() === "?") {
        const a = peek(1);
        const b = peek(2);
        if (a === ":") pos += 2;
        else if (a === "=" || a === "!") {
          pos += 2;
          look = true;
        } else if (a === "<" && (b === "=" || b === "!")) {
          pos += 3;
          look = true;
        } else if (a === "<") {
          while (pos < chars.length && chars[pos++] !== ">");
        } else {
          // inline modifiers (?i:…) and the like
          while (pos < chars.length && chars[pos] !== ":" && chars[pos] !== ")") pos++;
          if (chars[pos] === ":") pos++;
        }
      }
      const inner = alternation();
      pos++; // the closing )
      return look ? { t: "look", inner } : inner;
    }
    if (c === "[") return charClass();
    if (c === ".") return { t: "set", set: dot };
    if (c === "^" || c === "$") return { t: "empty" };
    if (c === "\\") {
      const e = readEscape(false);
      if (e === "empty") return { t: "empty" };
      if (e === "any") return { t: "any" };
      return set(e);
    }
    return set(one(c));
  };

  const quantifier = (): { min: number; max: number } | null => {
    const c = peek();
    let q: { min: number; max: number } | null = null;
    if (c === "*") q = { min: 0, max: Number.POSITIVE_INFINITY };
    else if (c === "+") q = { min: 1, max: Number.POSITIVE_INFINITY };
    else if (c === "?") q = { min: 0, max: 1 };
    if (q !== null) pos++;
    else if (c === "{") {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(chars.slice(pos, pos + 24).join(""));
      if (m === null) return null;
      pos += [...m[0]].length;
      const min = Number(m[1]);
      const max = m[2] === undefined ? min : m[3] === "" ? Number.POSITIVE_INFINITY : Number(m[3]);
      q = { min, max };
    }
    if (q !== null && peek() === "?") pos++; // lazy: same language, same backtracking
    return q;
  };

  const sequence = (): RegexNode => {
    const items: RegexNode[] = [];
    while (pos < chars.length && peek() !== "|" && peek() !== ")") {
      let node = atom();
      for (let q = quantifier(); q !== null; q = quantifier()) node = { t: "rep", node, ...q };
      items.push(node);
    }
    return items.length === 1 ? (items[0] as RegexNode) : { t: "seq", items };
  };

  const alternation = (): RegexNode => {
    const alts = [sequence()];
    while (peek() === "|") {
      pos++;
      alts.push(sequence());
    }
    return alts.length === 1 ? (alts[0] as RegexNode) : { t: "alt", alts };
  };

  return alternation();
}
