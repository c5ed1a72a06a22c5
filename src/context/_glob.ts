/** A small glob matcher for `allowedFiles`: `**` crosses folders, `*` and `?` do not. */

const SEGMENT = "(?!\\.)[^/]+";
const cache = new Map<string, RegExp>();

function toRegExp(pattern: string): RegExp {
  let source = "";
  let segmentStart = true;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as string;
    if (c === "*" && pattern[i + 1] === "*") {
      const slash = pattern[i + 2] === "/";
      source += slash ? `(?:${SEGMENT}/)*` : `(?:${SEGMENT}(?:/${SEGMENT})*)?`;
      i += slash ? 2 : 1;
      segmentStart = slash;
      continue;
    } else if (c === "*") {
      source += segmentStart ? "(?!\\.)[^/]*" : "[^/]*";
    } else if (c === "?") {
      source += "[^/]";
    } else {
      source += c.replace(/[.+^${}()|[\]\\]/g, "\\$&");
    }
    segmentStart = c === "/";
  }
  return new RegExp(`^${source}$`);
}

/** Dot-files only match literally. */
export function matchesGlob(path: string, patterns: readonly string[]): boolean {
  return patterns.some((pattern) => {
    let re = cache.get(pattern);
    if (!re) {
      re = toRegExp(pattern);
      cache.set(pattern, re);
    }
    return re.test(path);
  });
}
