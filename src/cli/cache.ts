import { rmSync } from "node:fs";
import { join } from "node:path";
import { listResults, resultsDir } from "../cache/local-store.ts";
import { loadProjectConfigSupervised } from "../config/supervised-load.ts";
import { writeOut } from "../platform/stdio.ts";
import { CpilotError } from "../util/errors.ts";
import { parseFlags } from "./_common.ts";

export async function cacheCommand(args: string[], options: { cwd: string }): Promise<number> {
  const { values, positionals } = parseFlags(
    args,
    { json: { type: "boolean" }, config: { type: "string" } },
    "cpilot cache [show|clear] [--json]",
  );
  const action = positionals[0] ?? "show";
  if (action !== "show" && action !== "clear")
    throw new CpilotError(`Cannot run "cpilot cache ${action}": not an action of cpilot cache`, {
      hint: "use `cpilot cache` (show) or `cpilot cache clear`",
    });
  const config = await loadProjectConfigSupervised(options.cwd, values.config);
  const results = listResults(config.root);
  const dir = resultsDir(config.root) ?? "(none: not in a git repository)";
  const bytes = results.reduce((n, r) => n + r.bytes, 0);
  if (action === "clear") {
    for (const r of results) rmSync(join(dir, `${r.key}.json`), { force: true });
    writeOut(
      values.json
        ? `${JSON.stringify({ cleared: results.length, bytes })}\n`
        : `cleared ${results.length} cached result${results.length === 1 ? "" : "s"} (${kb(bytes)})\n`,
    );
    return 0;
  }
  if (values.json) {
    writeOut(`${JSON.stringify({ dir, count: results.length, bytes, results })}\n`);
    return 0;
  }
  const newest = results[0];
  const oldest = results[results.length - 1];
  writeOut(
    results.length === 0
      ? `no cached results in ${dir}\n`
      : `${results.length} cached result${results.length === 1 ? "" : "s"}, ${kb(bytes)}, in ${dir}\n` +
          `newest ${new Date(newest?.mtimeMs ?? 0).toISOString()}, oldest ${new Date(oldest?.mtimeMs ?? 0).toISOString()}\n`,
  );
  return 0;
}

function kb(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : `${Math.round(bytes / 1024)} KB`;
}
