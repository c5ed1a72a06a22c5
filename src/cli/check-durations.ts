import { readFileSync } from "node:fs";
import { CpilotError } from "../util/errors.ts";

/** The largest durations file read: a `--json` document of a very large check. */
const MAX_BYTES = 256 << 20;

/**
 * Each run's duration shared among its files, from an earlier `--json` document. null when
 * there is none (a pipeline's first run): every shard then splits without it.
 */
export function readDurations(path: string): Map<string, number> | null {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw new CpilotError(`Cannot read durations "${path}": ${(err as Error).message}`, {
      hint: "give the --json document of an earlier check (cpilot check --merge joins shards' ones)",
    });
  }
  let runs: unknown;
  try {
    if (text.length > MAX_BYTES) throw new Error("too large");
    runs = (JSON.parse(text) as { runs?: unknown }).runs;
  } catch {
    runs = undefined;
  }
  if (!Array.isArray(runs)) {
    throw new CpilotError(
      `Cannot read durations "${path}": it is not a cpilot check --json document`,
      {
        hint: "give the --json document of an earlier check (cpilot check --merge joins shards' ones)",
      },
    );
  }
  const cost = new Map<string, number>();
  for (const run of runs as { files?: unknown; durationMs?: unknown }[]) {
    const files = Array.isArray(run?.files)
      ? run.files.filter((f): f is string => typeof f === "string")
      : [];
    const ms =
      typeof run?.durationMs === "number" && Number.isFinite(run.durationMs) ? run.durationMs : 0;
    if (files.length === 0 || ms <= 0) continue;
    for (const f of files) cost.set(f, (cost.get(f) ?? 0) + ms / files.length);
  }
  return cost;
}
