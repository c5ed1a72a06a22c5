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

/** Why no path can match a rule as git's wildmatch reads it (an unclosed class, an unknown `[:name:]`, a lone `\`), or null. */
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
