/** The POSIX classes git's wildmatch knows inside brackets, as in `[[:digit:]]`. */
export const POSIX_CLASSES = [
  "alnum",
  "alpha",
  "blank",
  "cntrl",
  "digit",
  "graph",
  "lower",
  "print",
  "punct",
  "space",
  "upper",
  "xdigit",
] as const;

/**
 * Scan a rule the way git's wildmatch reads it and say why no path can ever match it:
 * a `[` whose class never closes, an unknown `[:name:]`, or a trailing lone backslash.
 * Returns null when every bracket and escape is well formed.
 */
export function bracketProblem(rule: string): string | null {
  for (let i = 0; i < rule.length; i++) {
    const ch = rule[i];
    if (ch === "\\") {
      if (i === rule.length - 1) return "it ends with a lone backslash, so it never matches";
      i++;
    } else if (ch === "[") {
      const end = classEnd(rule, i);
      if (typeof end === "string") return end;
      i = end;
    }
  }
  return null;
}

/** Index of the `]` closing the class opened at `open`, or the problem with it. */
function classEnd(rule: string, open: number): number | string {
  let i = open + 1;
  if (rule[i] === "!" || rule[i] === "^") i++;
  let first = true;
  for (; i < rule.length; i++, first = false) {
    const ch = rule[i];
    if (ch === "]" && !first) return i;
    if (ch === "\\") {
      i++;
    } else if (ch === "[" && rule[i + 1] === ":") {
      const close = rule.indexOf("]", i + 2);
      if (close === -1) break;
      if (rule[close - 1] !== ":" || close - 1 < i + 2) continue; // no ":]": a literal "["
      const name = rule.slice(i + 2, close - 1);
      if (!(POSIX_CLASSES as readonly string[]).includes(name)) {
        return `it names an unknown character class "[:${name}:]" (expected one of ${POSIX_CLASSES.join(", ")})`;
      }
      i = close;
    }
  }
  return `it has an unclosed character class "${rule.slice(open)}" (close it with "]", or write "\\[" for a literal bracket)`;
}
