import { readFileSync } from "node:fs";
import { mergeSarifRuns } from "../diagnostics/merge-sarif.ts";
import { writeOut } from "../platform/stdio.ts";
import { CpilotError } from "../util/errors.ts";

type Json = Record<string, unknown>;

interface ShardMark {
  readonly index: number;
  readonly count: number;
  readonly of: number;
  readonly split: string;
  readonly files: readonly string[];
}

const HINT =
  "merge the --json (or --format sarif) outputs of every shard of one `cpilot check --shard I/N` run";

/**
 * Refused unless they are the N shards of the same split, every file in exactly one: a
 * shard missing, twice, or split otherwise would pass files nobody checked.
 */
export function mergeCommand(paths: readonly string[]): number {
  if (paths.length === 0) throw new CpilotError("Cannot merge: no files given", { hint: HINT });
  const docs = paths.map((path) => ({ path, doc: readDoc(path) }));
  const kinds = new Set(docs.map((d) => kindOf(d.doc)));
  if (kinds.size !== 1 || kinds.has(null))
    throw new CpilotError(
      `Cannot merge "${paths.join('", "')}": ${kinds.has(null) ? "one is neither a cpilot --json document nor a SARIF log" : "they mix JSON and SARIF"}`,
      { hint: HINT },
    );
  const sarif = kinds.has("sarif");
  const marks = docs.map(({ path, doc }) => {
    const mark = asMark(sarif ? (doc.properties as Json | undefined)?.cpilotShard : doc.shard);
    if (mark === null)
      throw new CpilotError(`Cannot merge "${path}": it is not the output of a --shard check`, {
        hint: HINT,
      });
    return mark;
  });
  checkCoverage(marks);
  const first = marks[0] as ShardMark;
  const shard = { count: first.count, of: first.of, split: first.split };
  if (sarif) {
    const base = docs[0]?.doc as Json;
    const runs = mergeSarifRuns(docs.flatMap((d) => d.doc.runs as Json[]));
    writeOut(`${JSON.stringify({ ...base, runs, properties: { cpilotShard: shard } }, null, 2)}\n`);
    return 0;
  }
  const all = docs.map((d) => d.doc);
  const merged = {
    ok: all.every((d) => d.ok === true),
    runs: all.flatMap((d) => d.runs as unknown[]),
    resyncs: all.flatMap((d) => (Array.isArray(d.resyncs) ? d.resyncs : [])),
    notes: all.flatMap((d) => (Array.isArray(d.notes) ? d.notes : [])),
    shard,
  };
  writeOut(`${JSON.stringify(merged)}\n`);
  return 0;
}

function checkCoverage(marks: readonly ShardMark[]): void {
  const first = marks[0] as ShardMark;
  const other = marks.find(
    (m) => m.count !== first.count || m.split !== first.split || m.of !== first.of,
  );
  if (other !== undefined)
    throw new CpilotError(
      `Cannot merge shard ${other.index}/${other.count} with shard ${first.index}/${first.count}: they split the files differently`,
      {
        hint: "every shard must be given the same files and the same --durations file; run the shards again",
      },
    );
  const seen = new Set<number>();
  for (const m of marks) {
    if (seen.has(m.index))
      throw new CpilotError(`Cannot merge: shard ${m.index}/${m.count} is given twice`, {
        hint: HINT,
      });
    seen.add(m.index);
  }
  const missing = Array.from({ length: first.count }, (_, i) => i + 1).filter((i) => !seen.has(i));
  if (missing.length > 0)
    throw new CpilotError(
      `Cannot merge: shard ${missing.map((i) => `${i}/${first.count}`).join(", ")} missing`,
      { hint: HINT },
    );
  const files = new Set<string>();
  for (const m of marks) for (const f of m.files) files.add(f);
  const total = marks.reduce((n, m) => n + m.files.length, 0);
  if (files.size !== total || total !== first.of)
    throw new CpilotError(
      `Cannot merge: the shards hold ${total} files (${files.size} different) of the ${first.of} split`,
      { hint: "every file must be in exactly one shard; run the shards again" },
    );
}

function readDoc(path: string): Json {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, "utf8"));
  } catch (err) {
    throw new CpilotError(`Cannot merge "${path}": ${(err as Error).message}`, { hint: HINT });
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new CpilotError(`Cannot merge "${path}": it holds no JSON object`, { hint: HINT });
  return value as Json;
}

function kindOf(doc: Json): "json" | "sarif" | null {
  if (!Array.isArray(doc.runs)) return null;
  if (doc.version === "2.1.0") return "sarif";
  return typeof doc.ok === "boolean" ? "json" : null;
}

function asMark(value: unknown): ShardMark | null {
  if (typeof value !== "object" || value === null) return null;
  const m = value as Json;
  const int = (v: unknown) => typeof v === "number" && Number.isInteger(v) && v >= 0;
  if (!int(m.index) || !int(m.count) || !int(m.of) || typeof m.split !== "string") return null;
  if (!Array.isArray(m.files) || !m.files.every((f) => typeof f === "string")) return null;
  return m as unknown as ShardMark;
}
