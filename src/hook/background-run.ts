import { readFileSync, renameSync, rmSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { postNotice } from "../agent-session/inbox.ts";
import { appendRunLog } from "../agent-session/run-log.ts";
import { recordResult } from "../agent-session/session-state.ts";
import { agentSettings } from "../config/agent-settings.ts";
import { findConfig } from "../config/find.ts";
import { loadProjectConfig } from "../config/load.ts";
import { probeTimeoutMs } from "../config/load-probe.ts";
import { isActive, readToggles } from "../config/state.ts";
import { loadConfigSupervised } from "../config/supervised-load.ts";
import { executeRun } from "../engine/execute-run.ts";
import { compareSnapshot, deletedIn, snapshot } from "../engine/resync.ts";
import { isRunId } from "../engine/run-id.ts";
import { Semaphore } from "../engine/semaphore.ts";
import type { RunResult } from "../model/outcome.ts";
import { randomHex } from "../platform/digest.ts";
import { renderResync } from "../ui/agent/render-resync.ts";
import { isFailure, renderFailure, renderSuccess } from "../ui/render-run.ts";
import { pathMove, repositoryTop, runSeenFrom } from "../ui/seen-from.ts";
import { CpilotError } from "../util/errors.ts";
import { STATE_DIR } from "../util/state-layout.ts";
import type { BackgroundSpec } from "./background.ts";
import { runningSpecName } from "./background-waiting.ts";

/** Longest the config may take to load, as for a hook call (CPILOT_CONFIG_LOAD_TIMEOUT_MS overrides). */
const LOAD_TIMEOUT_MS = 10_000;

/** The detached side of `startBackground`: results go to the session's inbox. Returns the number of failed runs. */
export async function runBackground(specPath: string): Promise<number> {
  // Only ever a spec that startBackground wrote is taken, and deleted once run.
  const name = basename(specPath);
  if (
    basename(dirname(specPath)) !== "background" ||
    basename(dirname(dirname(specPath))) !== STATE_DIR ||
    !name.endsWith(".json") ||
    !isRunId(name.slice(0, -".json".length))
  ) {
    throw new CpilotError(`Cannot run "${specPath}": it is not a background spec cpilot wrote`, {
      hint: "`cpilot _background` is cpilot's own; nothing needs to call it",
    });
  }
  const spec = JSON.parse(readFileSync(specPath, "utf8")) as BackgroundSpec;
  // Moved aside while it runs, so a waiter knows results are still to come.
  const runningPath = join(
    dirname(specPath),
    runningSpecName(name.slice(0, -".json".length), process.pid),
  );
  renameSync(specPath, runningPath);
  try {
    return await runSpec(spec);
  } catch (err) {
    const names = spec.runs.map((r) => `'${r.callback}' (run ${r.runId})`).join(", ");
    const why = err instanceof Error ? err.message : String(err);
    postNotice(inboxOf(spec), spec.session, {
      kind: "background-error",
      text: `✗ cpilot could not run ${names} in the background: ${why}`,
      failing: true,
    });
    return spec.runs.length;
  } finally {
    rmSync(runningPath, { force: true });
  }
}

/**
 * The inbox of the config the agent's later calls load, when that is another config's folder
 * in the same repository (the spec is a file an agent's shell could rewrite); else its own.
 */
function inboxOf(spec: BackgroundSpec): string {
  const inbox = spec.inbox;
  if (inbox === undefined || inbox === spec.root) return spec.root;
  const config = findConfig(inbox);
  const holdsConfig = config !== null && dirname(config) === inbox;
  return holdsConfig && repositoryTop(inbox) === repositoryTop(spec.root) ? inbox : spec.root;
}

async function runSpec(spec: BackgroundSpec): Promise<number> {
  // The config may not load this time: bounded like a hook call's load.
  const path = spec.configPath || findConfig(spec.root);
  const config =
    path === null
      ? await loadProjectConfig(spec.root)
      : await loadConfigSupervised(path, {
          cwd: spec.root,
          timeoutMs: probeTimeoutMs(process.env, LOAD_TIMEOUT_MS),
        });
  const settings = agentSettings(config.source.agent);
  const toggles = readToggles(config.root);
  const semaphore = new Semaphore(config.concurrency);
  const batchId = randomHex(6);
  const signal = new AbortController().signal;
  const paths = spec.runs.flatMap((r) => r.files);
  const before = await snapshot(spec.root, paths, deletedIn(spec.batch));
  const results = await Promise.all(
    spec.runs.map(async (run): Promise<RunResult | null> => {
      const callback = config.callbacks.find((c) => c.name === run.callback);
      if (callback === undefined || !isActive(callback, toggles)) return null;
      const result = await executeRun(
        { callback, files: run.files },
        {
          batch: spec.batch,
          batchId,
          signal,
          semaphore,
          extraEnv: spec.extraEnv,
          runId: run.runId,
        },
      );
      recordResult(spec.root, spec.session, result, run.per, config.path);
      const shown = runSeenFrom(result, spec.root, spec.seenFrom ?? spec.root);
      const text = isFailure(result)
        ? renderFailure(shown, { tailLines: settings.tailLines, background: true })
        : renderSuccess(shown, { background: true });
      if (text !== null) {
        postNotice(inboxOf(spec), spec.session, {
          kind: "background-run",
          text,
          runId: result.id,
          failing: isFailure(result),
        });
      }
      return result;
    }),
  );
  const finished = results.filter((r): r is RunResult => r !== null);
  appendRunLog(finished);
  const move = pathMove(spec.root, spec.seenFrom ?? spec.root) ?? ((path: string) => path);
  for (const resync of await compareSnapshot(spec.root, before)) {
    const text = renderResync({ ...resync, path: move(resync.path) });
    postNotice(inboxOf(spec), spec.session, { kind: "resync", text });
  }
  return finished.filter(isFailure).length;
}
