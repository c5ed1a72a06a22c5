import { existsSync } from "node:fs";
import { basename, dirname, join, relative } from "node:path";
import { appendRunLog } from "../agent-session/run-log.ts";
import {
  recordResult,
  type SessionResult,
  sessionResults,
} from "../agent-session/session-state.ts";
import { CONFIG_NAMES, findConfig } from "../config/find.ts";
import { probeTimeoutMs } from "../config/load-probe.ts";
import type { ResolvedConfig } from "../config/resolve.ts";
import { loadConfigSupervised } from "../config/supervised-load.ts";
import { createEngine } from "../engine/engine.ts";
import { isTracked } from "../project/tracked.ts";
import { reportOutcome } from "../ui/agent/render-outcome.ts";
import { outcomeSeenFrom, pathMove } from "../ui/seen-from.ts";
import { bookkeep } from "../util/bookkeeping.ts";
import { findRepository } from "../util/git-dir.ts";
import { realOr } from "../util/real-path.ts";

interface RecheckOptions {
  readonly agent: string;
  readonly session: string;
  readonly tailLines: number;
  /** Where the agent works: the paths it is told are relative to it. */
  readonly seenFrom: string;
}

/** `judge`: that config loaded, or why not; `label` names it when it is not the stop's own. */
export interface JudgedFailures {
  readonly judge: ResolvedConfig | string;
  /** The judging config's folder, which its entries' files are relative to. */
  readonly root: string;
  readonly label: string | null;
  readonly entries: readonly SessionResult[];
}

/** Grouped by the config that judged them (a monorepo package's own, the root's, a sibling's). */
export async function judgedFailures(
  config: ResolvedConfig,
  session: string,
): Promise<JudgedFailures[]> {
  const failing = sessionResults(config.root, session).filter(
    (r) => r.blocking && (r.status === "failed" || r.status === "timed_out"),
  );
  if (failing.length === 0) return [];
  // by where each config really is: one reached through a symlinked folder is the same
  const own = realOr(config.path);
  const byConfig = new Map<string, SessionResult[]>();
  for (const entry of failing) {
    const path = entry.config === "" ? own : realOr(entry.config);
    byConfig.set(path, [...(byConfig.get(path) ?? []), entry]);
  }
  const groups: JudgedFailures[] = [];
  for (const [path, entries] of byConfig) {
    if (path === own) {
      groups.push({ judge: config, root: config.root, label: null, entries });
      continue;
    }
    const name = judgeName(config, path);
    if (name === null) continue; // not a config that judges this repository's files
    groups.push({
      judge: await loadJudge(path, config.root),
      root: dirname(path),
      label: `cpilot: judged by ${name}:`,
      entries,
    });
  }
  return groups;
}

/** With the config that judged it; a fix made any way counts, a vanished file's check is fixed. */
export async function recheckFailing(
  groups: readonly JudgedFailures[],
  options: RecheckOptions,
): Promise<string[]> {
  const texts = await Promise.all(
    groups.map(async ({ judge, root, label, entries }) => {
      if (typeof judge === "string") {
        const move = pathMove(root, options.seenFrom) ?? ((path: string) => path);
        return entries.map(
          (e) =>
            `${label} '${e.callback}' failed on ${e.files.map(move).join(", ")} and could not be re-run: ${judge}`,
        );
      }
      const failures = await recheckWith(judge, entries, options);
      return label === null ? failures : failures.map((text) => `${label}\n${text}`);
    }),
  );
  return texts.flat();
}

/** Only a tracked config still nearest in its folder: never one the agent could have written. */
function judgeName(config: ResolvedConfig, path: string): string | null {
  const found = findRepository(config.root, {})?.top ?? null;
  if (found === null) return null;
  const top = realOr(found);
  const name = relative(top, path);
  if (name.startsWith("..") || !(CONFIG_NAMES as readonly string[]).includes(basename(path)))
    return null;
  if (findConfig(dirname(path)) !== path || !isTracked(top, name)) return null;
  return name;
}

/** Longest another config may take to load, as for a hook call (CPILOT_CONFIG_LOAD_TIMEOUT_MS overrides). */
const LOAD_TIMEOUT_MS = 10_000;

/** One that runs code loads in a supervised child first, as for a background run. */
async function loadJudge(path: string, cwd: string): Promise<ResolvedConfig | string> {
  try {
    return await loadConfigSupervised(path, {
      cwd,
      timeoutMs: probeTimeoutMs(process.env, LOAD_TIMEOUT_MS),
    });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return message.split("\n")[0] ?? message;
  }
}

async function recheckWith(
  config: ResolvedConfig,
  entries: readonly SessionResult[],
  options: RecheckOptions,
): Promise<string[]> {
  const { agent, session } = options;
  const engine = createEngine({ root: config.root, config });
  const outcomes = await Promise.all(
    entries.map(async (entry) => {
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
        bookkeep(config.root, undefined, () =>
          recordResult(config.root, session, run, entry.per, config.path),
        );
      }
      bookkeep(config.root, undefined, () => appendRunLog(outcome.runs));
      return outcome;
    }),
  );
  return outcomes.flatMap((o) =>
    o === null
      ? []
      : reportOutcome(outcomeSeenFrom(o, options.seenFrom), { tailLines: options.tailLines })
          .failures,
  );
}
