import type { ExitRule, OutputRule, ResolvedAction } from "../../config/trigger-rules.ts";
import type { RunResult } from "../../model/outcome.ts";
import { TAIL_LINES } from "../../platform/run-output.ts";
import { budgetNote, perform } from "./actions.ts";
import { claimFire } from "./limits.ts";
import type { Fire, WatchedRun } from "./types.ts";

const FIRE_TAIL = 60;

export interface RunWatcher {
  /** Undefined when no onOutput rule exists (no listener at all). */
  readonly onLine: ((line: string) => void) | undefined;
  started(): void;
  ended(): void;
  exited(result: RunResult): void;
  settled(): Promise<void>;
}

interface Window {
  readonly lines: string[];
  more: number;
  timer: ReturnType<typeof setTimeout> | undefined;
}

function exitMatches(rule: ExitRule, result: RunResult): boolean {
  const success = result.status === "passed" || result.status === "silent";
  const failure = result.status === "failed" || result.status === "timed_out";
  if (rule.when === "success") return success;
  if (rule.when === "failure") return failure;
  return success || failure;
}

/**
 * Evaluate a run's trigger rules and carry out their actions. Limits are taken when a fire is
 * scheduled, so a refused fire costs nothing.
 */
export function watchRun(run: WatchedRun): RunWatcher {
  const { triggers } = run;
  const fired = new Map<OutputRule, number>();
  const windows = new Map<OutputRule, Window>();
  const flushers = new Map<OutputRule, () => void>();
  const timers: ReturnType<typeof setTimeout>[] = [];
  const work = new Set<Promise<void>>();
  let ended = false;
  let budgetSpent = false;

  const admit = (action: ResolvedAction, rule: string): boolean => {
    if (action.kind === "run" && run.depth + 1 > triggers.limits.maxDepth) {
      run.sink.note(
        `${rule} trigger of '${run.callback}' (run ${run.runId}) did not start '${action.callback}': trigger depth ${run.depth + 1} is over the limit of ${triggers.limits.maxDepth}`,
      );
      return false;
    }
    const { root, origin } = run.batch;
    if (claimFire(root, origin.session, run.batchId, triggers.limits.sessionBudget)) return true;
    if (!budgetSpent) run.sink.note(budgetNote(run));
    budgetSpent = true;
    return false;
  };

  const dispatch = (fire: Fire): void => {
    const job = perform(run, fire).catch((err: unknown) => {
      const why = err instanceof Error ? err.message : String(err);
      run.sink.note(`${fire.rule} trigger of '${run.callback}' (run ${run.runId}) threw: ${why}`);
    });
    work.add(job);
    void job.finally(() => work.delete(job));
  };

  const tailFire = (): { lines: readonly string[]; more: number } => {
    const lines = run.tail();
    return { lines: lines.slice(-FIRE_TAIL), more: Math.max(0, lines.length - FIRE_TAIL) };
  };

  const openWindow = (rule: OutputRule, line: string): void => {
    const window: Window = { lines: [line], more: 0, timer: undefined };
    windows.set(rule, window);
    const fire = (): void => {
      if (windows.get(rule) !== window) return;
      windows.delete(rule);
      clearTimeout(window.timer);
      dispatch({
        trigger: "onOutput",
        rule: rule.label,
        action: rule.action,
        lines: window.lines,
        more: window.more,
        event: `printed a line matching ${rule.regex}`,
      });
    };
    flushers.set(rule, fire);
    if (rule.delayMs === 0 || ended) fire();
    else window.timer = setTimeout(fire, rule.delayMs);
  };

  const onLine =
    triggers.onOutput.length === 0
      ? undefined
      : (line: string): void => {
          for (const window of windows.values()) {
            if (window.lines.length < TAIL_LINES) window.lines.push(line);
            else window.more++;
          }
          for (const rule of triggers.onOutput) {
            if (windows.has(rule) || (fired.get(rule) ?? 0) >= rule.maxFires) continue;
            if (!rule.regex.test(line)) continue;
            fired.set(rule, (fired.get(rule) ?? 0) + 1);
            if (admit(rule.action, rule.label)) openWindow(rule, line);
          }
        };

  return {
    onLine,
    started() {
      for (const rule of triggers.onTimeout) {
        const timer = setTimeout(() => {
          if (ended || !admit(rule.action, rule.label)) return;
          dispatch({
            trigger: "onTimeout",
            rule: rule.label,
            action: rule.action,
            ...tailFire(),
            event: `is still running after ${rule.afterMs / 1000} s`,
          });
        }, rule.afterMs);
        timers.push(timer);
      }
    },
    ended() {
      ended = true;
      for (const timer of timers) clearTimeout(timer);
      for (const rule of [...windows.keys()]) flushers.get(rule)?.();
    },
    exited(result) {
      for (const rule of triggers.onExit) {
        if (!exitMatches(rule, result) || !admit(rule.action, rule.label)) continue;
        dispatch({
          trigger: "onExit",
          rule: rule.label,
          action: rule.action,
          ...tailFire(),
          event: `${result.status === "timed_out" ? "timed out" : result.status}: ${result.summary}`,
          result,
        });
      }
    },
    async settled() {
      while (work.size > 0) await Promise.all([...work]);
    },
  };
}
