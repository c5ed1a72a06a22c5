import { editDistance } from "../util/edit-distance.ts";

/** Nearest first, ties in input order. */
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
