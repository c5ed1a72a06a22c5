import {
  ALL,
  type CharSet,
  intersects,
  normalize,
  parseRegex,
  type RegexNode,
} from "./_regex-tree.ts";

/** Repetitions above this bound backtrack like unbounded ones. */
const MANY = 10;

const EMPTY: CharSet = [];

function union(a: CharSet, b: CharSet): CharSet {
  return normalize([...a, ...b]);
}

function nullable(node: RegexNode): boolean {
  switch (node.t) {
    case "set":
      return false;
    case "seq":
      return node.items.every(nullable);
    case "alt":
      return node.alts.some(nullable);
    case "rep":
      return node.min === 0 || nullable(node.node);
    default:
      return true;
  }
}

function edge(node: RegexNode, side: "first" | "last"): CharSet {
  switch (node.t) {
    case "set":
      return node.set;
    case "any":
      return ALL;
    case "seq": {
      const items = side === "first" ? node.items : [...node.items].reverse();
      let out = EMPTY;
      for (const item of items) {
        out = union(out, edge(item, side));
        if (!nullable(item)) break;
      }
      return out;
    }
    case "alt":
      return node.alts.reduce((acc, a) => union(acc, edge(a, side)), EMPTY);
    case "rep":
      return edge(node.node, side);
    default:
      return EMPTY;
  }
}

/** Repetitions that can end (or start) a match of `node`: where an outer loop can split it. */
function edgeReps(node: RegexNode, side: "first" | "last"): RegexNode[] {
  switch (node.t) {
    case "seq": {
      const items = side === "first" ? node.items : [...node.items].reverse();
      const out: RegexNode[] = [];
      for (const item of items) {
        out.push(...edgeReps(item, side));
        if (!nullable(item)) break;
      }
      return out;
    }
    case "alt":
      return node.alts.flatMap((a) => edgeReps(a, side));
    case "rep":
      return node.max > 1 ? [node, ...edgeReps(node.node, side)] : edgeReps(node.node, side);
    default:
      return [];
  }
}

function singleChar(node: RegexNode): CharSet | null {
  if (node.t === "set") return node.set;
  if (node.t === "rep" && node.min === 1 && node.max === 1) return singleChar(node.node);
  return null;
}

function overlappingAlternatives(node: RegexNode): boolean {
  const alts = node.t === "alt" ? node.alts : [];
  for (let i = 0; i < alts.length; i++) {
    for (let j = 0; j < alts.length; j++) {
      if (i === j) continue;
      const a = alts[i] as RegexNode;
      const b = alts[j] as RegexNode;
      if (i < j && JSON.stringify(a) === JSON.stringify(b)) return true;
      const one = singleChar(a);
      if (one === null) continue;
      // b is a run of characters each of which a can match: b's text is a repeated.
      const parts = b.t === "seq" ? b.items : [b];
      if (
        parts.every(
          (p) => (singleChar(p) ?? EMPTY).length > 0 && intersects(singleChar(p) ?? EMPTY, one),
        )
      )
        return true;
    }
  }
  return false;
}

function loopProblem(rep: Extract<RegexNode, { t: "rep" }>): string | null {
  const body = rep.node;
  if (overlappingAlternatives(body)) return "its alternatives overlap inside a repetition";
  const first = edge(body, "first");
  if (nullable(body) && first.length > 0) return "a repetition of something that may match nothing";
  const last = edge(body, "last");
  for (const inner of edgeReps(body, "last")) {
    if (inner.t === "rep" && intersects(edge(inner.node, "first"), first))
      return "it nests a repetition inside a repetition";
  }
  for (const inner of edgeReps(body, "first")) {
    if (inner.t === "rep" && intersects(edge(inner.node, "last"), last))
      return "it nests a repetition inside a repetition";
  }
  return null;
}

function walk(node: RegexNode, visit: (n: RegexNode) => string | null): string | null {
  const here = visit(node);
  if (here !== null) return here;
  switch (node.t) {
    case "seq":
      for (const item of node.items) {
        const p = walk(item, visit);
        if (p !== null) return p;
      }
      return null;
    case "alt":
      for (const alt of node.alts) {
        const p = walk(alt, visit);
        if (p !== null) return p;
      }
      return null;
    case "rep":
    case "look":
      return walk(node.t === "rep" ? node.node : node.inner, visit);
    default:
      return null;
  }
}

/**
 * Why a regex can take exponential time, or null. A loop is flagged when an iteration can end
 * in a repetition that could also take the next iteration's text (`(a+)+`, `(\s*\w*)+`), or
 * when its alternatives can match the same text (`(a|aa)+`). `(\d+\.)+` and `(foo|bar)+` pass.
 */
export function catastrophicBacktracking(source: string, flags = ""): string | null {
  let tree: RegexNode;
  try {
    tree = parseRegex(source, flags);
  } catch {
    return null;
  }
  return walk(tree, (n) =>
    n.t === "rep" && (n.max === Number.POSITIVE_INFINITY || n.max > MANY) ? loopProblem(n) : null,
  );
}

/**
 * Compile a trigger's `match` and check it: the problem in words, or the RegExp.
 *
 * @example
 * checkTriggerRegex("(a+)+$")         // { problem: "…nests a repetition inside a repetition…" }
 */
export function checkTriggerRegex(
  match: string | RegExp,
  extraFlags = "",
): { regex: RegExp; problem?: undefined } | { problem: string; regex?: undefined } {
  const source = typeof match === "string" ? match : match.source;
  // g and y make `test` stateful, d only costs: a trigger needs none of them.
  const given = typeof match === "string" ? extraFlags : match.flags + extraFlags;
  const flags = [...new Set(given.replace(/[gyd]/g, ""))].join("");
  if (source === "" || source === "(?:)") return { problem: "expected a non-empty regex" };
  let regex: RegExp;
  try {
    regex = new RegExp(source, flags);
  } catch (err) {
    return { problem: `invalid regex /${source}/: ${(err as Error).message}` };
  }
  const why = catastrophicBacktracking(source, flags);
  if (why !== null) {
    return {
      problem: `regex /${source}/ can backtrack catastrophically: ${why}; rewrite it without the nested repetition`,
    };
  }
  return { regex };
}
