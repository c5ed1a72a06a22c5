/** `check --shard I/N`: the split of the files every job of a CI matrix makes alike. */
import { expect, test } from "bun:test";
import fc from "fast-check";
import { parseShard, splitShard } from "../../src/match/shard.ts";

const all = (files: string[], weights: Map<string, number>, count: number) =>
  Array.from({ length: count }, (_, i) => splitShard(files, weights, { index: i + 1, count }));

test("every file lands in exactly one shard, whatever the files, weights and count", () => {
  fc.assert(
    fc.property(
      fc.uniqueArray(fc.string({ minLength: 1, maxLength: 6 }), { maxLength: 60 }),
      fc.array(fc.double({ min: -5, max: 1e6, noNaN: false })),
      fc.integer({ min: 1, max: 9 }),
      (files, ws, count) => {
        const weights = new Map(files.map((f, i) => [f, ws[i] ?? Number.NaN] as const));
        const shards = all(files, weights, count);
        const seen = shards.flatMap((s) => s.files);
        expect(seen.sort()).toEqual([...files].sort());
        expect(new Set(shards.map((s) => s.split)).size).toBe(1);
        expect(shards.every((s) => s.of === files.length)).toBe(true);
      },
    ),
  );
});

test("the split does not depend on the order the files come in", () => {
  const files = Array.from({ length: 40 }, (_, i) => `src/f${i}.ts`);
  const weights = new Map(files.map((f, i) => [f, (i * 37) % 11] as const));
  const reversed = [...files].reverse();
  for (let i = 1; i <= 4; i++) {
    const a = splitShard(files, weights, { index: i, count: 4 });
    const b = splitShard(reversed, weights, { index: i, count: 4 });
    expect(new Set(a.files)).toEqual(new Set(b.files));
    expect(a.split).toBe(b.split);
  }
});

test("longest first onto the lightest shard: recorded durations balance the parts", () => {
  const weights = new Map([
    ["slow.ts", 900],
    ["mid.ts", 500],
    ["b.ts", 400],
    ["c.ts", 100],
  ]);
  const [one, two] = all([...weights.keys()], weights, 2);
  expect(one?.files).toEqual(["slow.ts", "c.ts"]);
  expect(two?.files).toEqual(["mid.ts", "b.ts"]);
});

test("a file without a recorded duration costs the median; ties go by name to the lowest shard", () => {
  const weights = new Map([
    ["a", 10],
    ["b", 30],
    ["c", 20],
  ]);
  // d unknown: costs 20 like c; c before d by name
  const [one, two] = all(["d", "c", "b", "a"], weights, 2);
  expect(one?.files).toEqual(["b", "a"]);
  expect(two?.files).toEqual(["d", "c"]);
  // no durations at all: by name, round robin
  const [x, y] = all(["c", "a", "b", "d"], new Map(), 2);
  expect(x?.files).toEqual(["c", "a"]); // in the order given
  expect(y?.files).toEqual(["b", "d"]);
});

test("other durations make another split, which a merge can tell", () => {
  const files = ["a", "b", "c"];
  const one = splitShard(files, new Map([["a", 5]]), { index: 1, count: 2 });
  const two = splitShard(files, new Map([["a", 50]]), { index: 1, count: 2 });
  expect(one.split).not.toBe(two.split);
});

test("--shard takes I/N with 1 <= I <= N", () => {
  expect(parseShard("2/4")).toEqual({ index: 2, count: 4 });
  for (const bad of ["0/2", "3/2", "1/0", "a/b", "1/2/3", "", "1/999"])
    expect(() => parseShard(bad)).toThrow(`Cannot check shard "${bad}"`);
});
