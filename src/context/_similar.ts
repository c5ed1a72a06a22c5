/** Ranking of near misses for "did you mean" lists. */

/** Edit distance between two strings (insert, delete, substitute each cost 1). */
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

/** The `limit` entries of `options` nearest to `target`, nearest first, ties in input order. */
export function nearest<T>(
  target: string,
  options: readonly T[],
  text: (option: T) => string,
  limit = 5,
): T[] {
  const scored = options.map((option, index) => {
    const value = text(option);
    const distance = editDistance(target, value.slice(0, target.length * 2 + 20));
    const shared = value.includes(target) || target.includes(value) ? -1000 : 0;
    return { option, index, score: distance / Math.max(1, target.length, value.length) + shared };
  });
  scored.sort((x, y) => x.score - y.score || x.index - y.index);
  return scored.slice(0, limit).map((entry) => entry.option);
}
