import {
  listRunning,
  type RunningRecord,
  stopRunning,
  stopSessionRuns,
} from "../engine/running.ts";
import { writeOut } from "../platform/stdio.ts";
import { say } from "../ui/style.ts";
import { closestNames } from "../util/edit-distance.ts";
import { CpilotError } from "../util/errors.ts";
import { parseFlags } from "./_common.ts";
import { supervisionRoot } from "./ps.ts";

const USAGE = "cpilot stop RUN_ID... | --session ID | --all [--json] [--config PATH]";

/** Its whole process group, from any shell. `--session ID`: what a session started (persist runs too); `--all`: everything. */
export async function stopCommand(args: string[], options: { cwd: string }): Promise<number> {
  const { values, positionals } = parseFlags(
    args,
    {
      session: { type: "string" },
      all: { type: "boolean" },
      json: { type: "boolean" },
      config: { type: "string" },
    },
    USAGE,
    {
      all: "every run cpilot started in this project",
      session: "every run this agent session started",
    },
  );
  const chosen = [positionals.length > 0, values.session !== undefined, values.all === true];
  if (chosen.filter(Boolean).length !== 1) {
    throw new CpilotError("Cannot stop: name run ids, or --session ID, or --all (one of them)", {
      hint: `usage: ${USAGE}; \`cpilot ps\` lists what runs`,
    });
  }
  const root = supervisionRoot(options.cwd, values.config);
  let stopped: RunningRecord[];
  if (values.session !== undefined) {
    stopped = await stopSessionRuns(root, values.session, { includePersist: true });
  } else {
    const ids = values.all ? listRunning(root).map((r) => r.runId) : positionals;
    const running = listRunning(root).map((r) => r.runId);
    for (const id of ids) {
      if (running.includes(id)) continue;
      const near = closestNames(id, running);
      throw new CpilotError(`Cannot stop run "${id}": it is not running`, {
        hint:
          near.length > 0
            ? `did you mean ${near.map((n) => `"${n}"`).join(" or ")}?`
            : "`cpilot ps` lists what runs; `cpilot logs` shows finished runs",
      });
    }
    const results = await Promise.all(ids.map((id) => stopRunning(root, id, "`cpilot stop`")));
    stopped = results.filter((r): r is RunningRecord => r !== null);
  }
  if (values.json) writeOut(`${JSON.stringify({ stopped })}\n`);
  else if (stopped.length === 0) say("cpilot stop: nothing was running");
  else for (const r of stopped) say(`stopped run ${r.runId} ('${r.callback}', pid ${r.pid})`);
  return 0;
}
