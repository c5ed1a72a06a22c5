/** Codex's `str::trim` strips Unicode White_Space: U+0085 is whitespace to Rust, U+FEFF (a BOM) is not. */
const RUST_WHITESPACE =
  "\t\n\v\f\r \u0085\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000";

const isRustSpace = (c: string): boolean => RUST_WHITESPACE.includes(c);

export function rustTrim(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && isRustSpace(s[start] as string)) start++;
  while (end > start && isRustSpace(s[end - 1] as string)) end--;
  return s.slice(start, end);
}

export function rustTrimEnd(s: string): string {
  let end = s.length;
  while (end > 0 && isRustSpace(s[end - 1] as string)) end--;
  return s.slice(0, end);
}

/** Split at `\n`, one `\r` before it dropped; no last empty line. */
export function rustLines(s: string): string[] {
  if (s === "") return [];
  const parts = s.split("\n");
  const last = parts.pop() as string;
  const lines = parts.map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l));
  if (last !== "") lines.push(last);
  return lines;
}
