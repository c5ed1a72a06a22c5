import { existsSync } from "node:fs";
import { join } from "node:path";
import { appendRunLog } from "../agent-session/run-log.ts";
import { recordResult, sessionResults } from "../agent-session/session-state.ts";
import type { ResolvedConfig } from "../config/resolve.ts";
import { createEngine } from "../engine/engine.ts";
import { reportOutcome } from "../ui/agent/render-outcome.ts";
import { bookkeep } from "../util/bookkeeping.ts";

/**
 * Re-run every blocking callback whose last result in this session failed, on the same
 * files (a per-file callback whose file is gone counts as fixed), and return the failures
 * that remain, rendered for the agent. A fix made any way (a shell, a formatter) counts.
 */
export async function recheckFailing(options: {
  config: ResolvedConfig;
  agent: string;
  session: string;
  tailLines: number;
}): Promise<string[]> {
  const { config, agent, session } = options;
  const failing = sessionResults(config.root, session).filter(
    (r) => r.blocking && (r.status === "failed" || r.status === "timed_out"),
  );
  if (failing.length === 0) return [];
  const engine = createEngine({ root: config.root, config });
  const outcomes = await Promise.all(
    failing.map(async (entry) => {
      const present = entry.files.filter((f) => existsSync(join(config.root, f)));
      if (entry.per === "file" && present.length === 0) return null;
      const files = entry.files.map((f) => ({
        path: f,
        kind: present.includes(f) ? ("modified" as const) : ("deleted" as const),
      }));
      const batch = {
        root: config.root,
        files,
        origin: { surface: "hook" as const, agent, session },
      };
      const outcome = await engine.run(batch, {
        only: [entry.callback],
        blocking: true,
        extraEnv: { CP_AGENT: agent, CP_SESSION_ID: session },
      });
      for (const run of outcome.runs) {
        bookkeep(config.root, undefined, () => recordResult(config.root, session, run, entry.per));
      }
      bookkeep(config.root, undefined, () => appendRunLog(outcome.runs));
      return outcome;
    }),
  );
  return outcomes.flatMap((o) =>
    o === null ? [] : reportOutcome(o, { tailLines: options.tailLines }).failures,
  );
}
