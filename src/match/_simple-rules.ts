// A fast path for rule lists made of the forms most configs use (`*.ts`, `dist/`, `docs/**`,
// `src/**/*.ts`…), as regexes of escaped literals; anything else goes to the `ignore` package.
// tests/match/pattern.test.ts compares every form here with git.

interface SegmentRule {
  kind: "name" | "suffix" | "prefix";
  text: string;
  base: string;
  anywhere: boolean;
  negated: boolean;
  dirOnly: boolean;
}

interface PathRule {
  kind: "path" | "below";
  text: string;
  negated: boolean;
  dirOnly: boolean;
}

type Rule = SegmentRule | PathRule;

const isPathRule = (rule: Rule): rule is PathRule => rule.kind === "path" || rule.kind === "below";

/** What makes a rule more than a literal for git: escapes, `?`, classes, a trailing space. */
const SPECIAL = /[\\?[\]]|\s$/;

const isLiteral = (s: string) => s !== "" && s !== "." && s !== ".." && !s.includes("*");

function parseSegment(seg: string): { kind: "name" | "suffix" | "prefix"; text: string } | null {
  const star = seg.indexOf("*");
  if (star === -1) return isLiteral(seg) ? { kind: "name", text: seg } : null;
  if (star === 0 && !seg.includes("*", 1)) return { kind: "suffix", text: seg.slice(1) };
  if (star === seg.length - 1 && star > 0) return { kind: "prefix", text: seg.slice(0, -1) };
  return null;
}

function parseRule(line: string): Rule | null | undefined {
  if (line === "" || line.startsWith("#")) return undefined;
  const negated = line.startsWith("!");
  let body = negated ? line.slice(1) : line;
  if (body === "" || SPECIAL.test(body)) return null;
  const dirOnly = body.endsWith("/");
  if (dirOnly) body = body.slice(0, -1);
  if (body.startsWith("**/") && !body.includes("/", 3)) body = body.slice(3);
  if (!body.includes("/")) {
    const seg = parseSegment(body);
    return seg && { ...seg, base: "", anywhere: true, negated, dirOnly };
  }
  const segs = (body.startsWith("/") ? body.slice(1) : body).split("/");
  const last = segs.pop() ?? "";
  if (segs.every(isLiteral) && isLiteral(last)) {
    return { kind: "path", text: [...segs, last].join("/"), negated, dirOnly };
  }
  if (last === "**" && segs.length > 0 && segs.every(isLiteral) && !dirOnly) {
    return { kind: "below", text: segs.join("/"), negated, dirOnly };
  }
  const anywhere = segs.at(-1) === "**";
  if (anywhere) segs.pop();
  const seg = parseSegment(last);
  if (seg === null || !segs.every(isLiteral)) return null;
  return { ...seg, base: segs.join("/"), anywhere, negated, dirOnly };
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

function source(rule: Rule, end: string): string {
  const t = escapeRegex(rule.text);
  if (isPathRule(rule)) {
    if (rule.kind === "path") return `^${t}${end}`;
    return end === "$" ? `^${t}/` : `^${t}/[^/]+/`;
  }
  const seg = rule.kind === "name" ? t : rule.kind === "suffix" ? `[^/]*${t}` : `${t}[^/]*`;
  const base = rule.base === "" ? "^" : `^${escapeRegex(rule.base)}/`;
  if (!rule.anywhere) return `${base}${seg}${end}`;
  if (rule.kind === "suffix") return rule.base === "" ? `${t}${end}` : `${base}[\\s\\S]*${t}${end}`;
  return rule.base === "" ? `(?:^|/)${seg}${end}` : `${base}(?:[\\s\\S]*/)?${seg}${end}`;
}

function anyOf(rules: readonly Rule[], asDir: boolean, asFile: boolean): RegExp | null {
  const parts: string[] = [];
  for (const rule of rules) {
    if (asDir) parts.push(source(rule, "/"));
    if (asFile && !rule.dirOnly) parts.push(source(rule, "$"));
  }
  return parts.length === 0 ? null : new RegExp(parts.join("|"));
}

/**
 * git's algorithm: a directory whose last matching rule is positive excludes everything below
 * it (no `!` can re-include); else the file's last matching rule decides.
 */
function lastRuleWins(
  rules: readonly Rule[],
  dirTests: readonly RegExp[],
  fileTests: readonly (RegExp | null)[],
  path: string,
): boolean {
  for (let slash = path.indexOf("/"); ; slash = path.indexOf("/", slash + 1)) {
    const isDir = slash !== -1;
    const part = isDir ? path.slice(0, slash) : path;
    for (let r = rules.length - 1; r >= 0; r--) {
      if ((isDir ? dirTests[r] : fileTests[r])?.test(part)) {
        if (!rules[r]!.negated) return true;
        break;
      }
    }
    if (!isDir) return false;
  }
}

/** Null when some rule needs the full gitignore engine. */
export function compileSimpleRules(lines: readonly string[]): ((path: string) => boolean) | null {
  const rules: Rule[] = [];
  for (const line of lines) {
    const rule = parseRule(line);
    if (rule === null) return null;
    if (rule !== undefined) rules.push(rule);
  }
  const positive = rules.filter((r) => !r.negated);
  const any = anyOf(positive, true, true);
  if (any === null) return () => false;
  if (positive.length === rules.length) return (path) => any.test(path);
  // With `!` rules: most paths have no directory a positive rule matches, so the file's last
  // matching rule decides.
  const dirHit = anyOf(positive, true, false);
  const dirTests = rules.map((r) => new RegExp(source(r, "$")));
  const fileTests = rules.map((r, i) => (r.dirOnly ? null : dirTests[i]!));
  return (path) => {
    if (dirHit?.test(path)) return lastRuleWins(rules, dirTests, fileTests, path);
    for (let r = rules.length - 1; r >= 0; r--) {
      if (fileTests[r]?.test(path)) return !rules[r]!.negated;
    }
    return false;
  };
}
