export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + cost,
      );
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/**
 * The names nearest to a misspelled one: within a third of its length (at least 2), or
 * containing it; nearest first.
 *
 * @example
 * closestNames("chek", ["check", "list"]) // ["check"]
 */
export function closestNames(name: string, candidates: readonly string[], max = 3): string[] {
  return [...candidates]
    .map((c) => ({ c, d: editDistance(name, c) }))
    .filter(({ c, d }) => d <= Math.max(2, Math.floor(c.length / 3)) || c.includes(name))
    .sort((a, b) => a.d - b.d)
    .slice(0, max)
    .map(({ c }) => c);
}

export function didYouMean(name: string, candidates: readonly string[], quote = '"'): string {
  const near = closestNames(name, candidates);
  return near.length === 0
    ? ""
    : `did you mean ${near.map((n) => `${quote}${n}${quote}`).join(" or ")}?`;
}
