import { sha1Hex } from "../platform/digest.ts";
import { CpilotError } from "../util/errors.ts";

export interface ShardSpec {
  readonly index: number;
  readonly count: number;
}

const MAX_SHARDS = 256;

export function parseShard(text: string): ShardSpec {
  const match = /^(\d{1,4})\/(\d{1,4})$/.exec(text.trim());
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || index < 1 || count < 1 || index > count || count > MAX_SHARDS) {
    throw new CpilotError(
      `Cannot check shard "${text}": it is not I/N with 1 <= I <= N <= ${MAX_SHARDS}`,
      {
        hint: "give this job's part and the number of parts, such as --shard 2/4",
      },
    );
  }
  return { index, count };
}

export interface Shard {
  readonly spec: ShardSpec;
  readonly files: readonly string[];
  readonly of: number;
  /** The same for every shard of one split: a merge compares them. */
  readonly split: string;
}

/**
 * Keep part `spec.index` of `files` split by `weights` (recorded ms; unknown: the median),
 * longest first onto the lightest shard, ties broken the same way everywhere, so every job
 * of a matrix makes the same split and each file lands in exactly one shard.
 */
export function splitShard(
  files: readonly string[],
  weights: ReadonlyMap<string, number>,
  spec: ShardSpec,
): Shard {
  const unique = [...new Set(files)];
  const known = unique
    .map((f) => weights.get(f))
    .filter((w): w is number => w !== undefined && Number.isFinite(w) && w > 0)
    .sort((a, b) => a - b);
  const fallback = known.length === 0 ? 1 : (known[known.length >> 1] as number);
  // whole milliseconds: sums stay exact, the same on every machine
  const cost = (f: string) => {
    const w = weights.get(f);
    return Math.max(1, Math.round(w !== undefined && Number.isFinite(w) && w > 0 ? w : fallback));
  };
  const order = unique
    .map((path) => ({ path, cost: cost(path) }))
    .sort((a, b) => b.cost - a.cost || compareBytes(a.path, b.path));
  const loads = new Array<number>(spec.count).fill(0);
  const mine = new Set<string>();
  for (const { path, cost: c } of order) {
    let lightest = 0;
    for (let s = 1; s < loads.length; s++)
      if ((loads[s] as number) < (loads[lightest] as number)) lightest = s;
    loads[lightest] = (loads[lightest] as number) + c;
    if (lightest === spec.index - 1) mine.add(path);
  }
  const split = sha1Hex(`${spec.count}\n${order.map((o) => `${o.cost} ${o.path}`).join("\n")}`);
  return { spec, files: unique.filter((f) => mine.has(f)), of: unique.length, split };
}

function compareBytes(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
