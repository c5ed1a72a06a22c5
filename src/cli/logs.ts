import { createReadStream } from "node:fs";
import { loadProjectConfigSupervised } from "../config/supervised-load.ts";
import { listRuns, openRunLog, readRun, type StoredRun } from "../engine/runs-store.ts";
import { writeErr, writeOut } from "../platform/stdio.ts";
import { pathMove } from "../ui/seen-from.ts";
import { formatDuration } from "../ui/style.ts";
import { renderTable } from "../ui/table.ts";
import { CpilotError } from "../util/errors.ts";
import { STATE, statePath } from "../util/state-layout.ts";
import { parseFlags } from "./_common.ts";
import { runPlaces } from "./_run-places.ts";

export async function logsCommand(args: string[], options: { cwd: string }): Promise<number> {
  const { values, positionals } = parseFlags(
    args,
    {
      json: { type: "boolean" },
      limit: { type: "string", short: "n" },
      config: { type: "string" },
    },
    "cpilot logs [RUN_ID] [-n N] [--json]",
  );
  const config = await loadProjectConfigSupervised(options.cwd, values.config);
  const id = positionals[0];
  const places = runPlaces(config.root);
  if (id === undefined) {
    const runs = recentRuns(places, config.root, options.cwd, Number(values.limit ?? 20) || 20);
    if (values.json) {
      writeOut(`${JSON.stringify(runs)}\n`);
      return 0;
    }
    const rows = runs.map((r) => [
      r.id,
      r.callback,
      r.status,
      formatDuration(r.durationMs),
      r.files.length === 1 ? (r.files[0] ?? "") : `${r.files.length} files`,
    ]);
    writeOut(`${renderTable(["run", "callback", "status", "time", "files"], rows)}\n`);
    return 0;
  }
  let run: StoredRun | null = null;
  for (const place of places) {
    run = readRun(place, id);
    if (run !== null) break;
  }
  if (run === null) {
    throw new CpilotError(
      `Cannot show run "${id}": no such run in ${statePath(config.root, STATE.runs)}`,
      {
        hint: "`cpilot logs` lists recent runs; old ones are pruned",
      },
    );
  }
  if (values.json) {
    writeOut(`${JSON.stringify(run)}\n`);
    return 0;
  }
  writeErr(
    `# ${run.callback} · ${run.status} · ${run.summary} · ${formatDuration(run.durationMs)} · ${new Date(run.startedAt).toISOString()}\n`,
  );
  const fd = openRunLog(run);
  if (fd === null) {
    writeErr("(its log is gone)\n");
    return 0;
  }
  await new Promise<void>((resolve, reject) => {
    createReadStream("", { fd })
      .on("error", reject)
      .on("end", resolve)
      .pipe(process.stdout, { end: false });
  });
  return 0;
}

/**
 * The newest runs of the config's folder and of the packages below it with their own, files
 * named from `cwd` as the terminal names them.
 */
function recentRuns(
  places: readonly string[],
  root: string,
  cwd: string,
  limit: number,
): StoredRun[] {
  const runs: StoredRun[] = [];
  for (const place of places) {
    if (place !== root && !place.startsWith(`${root}/`)) continue;
    const move = pathMove(place, cwd);
    for (const run of listRuns(place, limit))
      runs.push(move === null ? run : { ...run, files: run.files.map(move) });
  }
  return runs.sort((a, b) => b.startedAt - a.startedAt).slice(0, limit);
}
