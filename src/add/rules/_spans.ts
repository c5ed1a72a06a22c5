/** A piece of the request a rule has used, so later rules do not read it again. */
export interface Span {
  readonly start: number;
  readonly end: number;
}

/** Every other offset stays where it was. */
export function blank(text: string, spans: readonly Span[]): string {
  let out = text;
  for (const { start, end } of spans) {
    out = out.slice(0, start) + " ".repeat(end - start) + out.slice(end);
  }
  return out;
}

export function matchAll(text: string, re: RegExp): (RegExpExecArray & Span)[] {
  const flags = re.flags.includes("g") ? re.flags : `${re.flags}g`;
  const out: (RegExpExecArray & Span)[] = [];
  for (const m of text.matchAll(new RegExp(re.source, flags))) {
    const start = m.index ?? 0;
    out.push(Object.assign(m as RegExpExecArray, { start, end: start + m[0].length }));
  }
  return out;
}

export const overlaps = (a: Span, b: Span): boolean => a.start < b.end && b.start < a.end;
