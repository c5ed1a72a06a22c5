import { dirname, resolve } from "node:path";
import { findConfig } from "../config/find.ts";
import { listRunning, type RunningRecord, stopOrphans } from "../engine/running.ts";
import { writeOut } from "../platform/stdio.ts";
import { formatDuration, say } from "../ui/style.ts";
import { renderTable } from "../ui/table.ts";
import { parseFlags } from "./_common.ts";

/** For commands that must work with a broken config (ps, stop): --config's folder, the nearest config's, else cwd. */
export function supervisionRoot(cwd: string, explicit: string | undefined): string {
  if (explicit !== undefined) return dirname(resolve(cwd, explicit));
  const found = findConfig(cwd);
  return found === null ? resolve(cwd) : dirname(found);
}

function oneLine(text: string, max = 60): string {
  const line = text.replace(/\s*\n\s*/g, " ⏎ ").trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

function rows(records: readonly RunningRecord[], now: number): string[][] {
  return records.map((r) => [
    r.runId,
    r.callback,
    String(r.pid),
    `${new Date(r.startedAt).toLocaleTimeString()} (${formatDuration(now - r.startedAt)} ago)`,
    r.session ?? "-",
    `${oneLine(r.command)}${r.persist ? "  [persist]" : ""}`,
  ]);
}

/** Across every cpilot process; runs whose owner exited are stopped first. */
export async function psCommand(args: string[], options: { cwd: string }): Promise<number> {
  const { values } = parseFlags(
    args,
    { json: { type: "boolean" }, config: { type: "string" } },
    "cpilot ps [--json] [--config PATH]",
  );
  const root = supervisionRoot(options.cwd, values.config);
  const orphans = await stopOrphans(root);
  const running = listRunning(root);
  if (values.json) {
    writeOut(`${JSON.stringify({ root, running, stoppedOrphans: orphans })}\n`);
    return 0;
  }
  for (const o of orphans)
    say(`cpilot: stopped run ${o.runId} ('${o.callback}'): the process that owned it exited`);
  if (running.length === 0) {
    say("cpilot ps: nothing running");
    return 0;
  }
  const table = renderTable(
    ["run", "callback", "pid", "started", "session", "command"],
    rows(running, Date.now()),
  );
  writeOut(`${table}\n`);
  return 0;
}
