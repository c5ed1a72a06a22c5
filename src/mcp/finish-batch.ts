import { postNotice } from "../agent-session/inbox.ts";
import type { EditBatch, FileChange } from "../model/batch.ts";
import type { Resync, RunResult } from "../model/outcome.ts";
import { backgroundNotice } from "./background-notice.ts";
import type { CallAnswer } from "./batcher.ts";
import { callResults } from "./call-result.ts";
import { shiftRegion } from "./edits.ts";
import type { WriteDone } from "./perform-write.ts";
import type { Project } from "./project.ts";
import type { SessionPause } from "./session-pause.ts";
import { toAgentSpace } from "./text-file.ts";

export interface FinishContext {
  readonly project: Project;
  readonly session: string;
  readonly paused: SessionPause;
  readonly agent: () => string | undefined;
  readonly signal: AbortSignal;
  /** Agent space, by path. */
  readonly known: Map<string, string>;
  /** Keeps a background run's promise so shutdown can wait for it. */
  readonly track: (work: Promise<void>) => void;
}

/** From the batch's first and last write of each path. */
export function mergeChanges(writes: readonly WriteDone[]): FileChange[] {
  const first = new Map<string, WriteDone["kind"]>();
  const last = new Map<string, WriteDone["kind"]>();
  for (const w of writes) {
    if (!first.has(w.path)) first.set(w.path, w.kind);
    last.set(w.path, w.kind);
  }
  const changes: FileChange[] = [];
  for (const [path, kind] of first) {
    const existedBefore = kind !== "created";
    const existsNow = last.get(path) !== "deleted";
    if (existsNow) changes.push({ path, kind: existedBefore ? "modified" : "created" });
    else if (existedBefore) changes.push({ path, kind: "deleted" });
  }
  return changes;
}

export function carryRegions(writes: readonly WriteDone[]): void {
  writes.forEach((later, i) => {
    for (const earlier of writes.slice(0, i)) {
      if (earlier.path !== later.path || earlier.regions === null) continue;
      if (later.splices === null) {
        earlier.regions = earlier.regions.map((list) => list.map(() => null));
        continue;
      }
      earlier.regions = earlier.regions.map((list) =>
        list.map((region) => {
          let r = region;
          for (const splice of later.splices ?? []) r = r === null ? null : shiftRegion(r, splice);
          return r;
        }),
      );
    }
  });
}

/** Each call's result: its summary, its file's runs (background ones delivered later), what a formatter changed. */
export async function finishBatch(
  writes: readonly WriteDone[],
  ctx: FinishContext,
): Promise<CallAnswer[]> {
  carryRegions(writes);
  const state = await ctx.project.load();
  const changes = mergeChanges(writes);
  let runs: readonly RunResult[] = [];
  let resyncs: readonly Resync[] = [];
  let notes: readonly string[] = [];
  let background: { callback: string; files: readonly string[] }[] = [];
  let trouble: string | null = null;
  if (state.kind === "broken") {
    trouble = `callbacks did not run: the config does not load:\n${state.error}`;
  } else if (state.kind === "ok" && changes.length > 0) {
    const agent = ctx.agent();
    const batch: EditBatch = {
      root: ctx.project.root,
      files: changes,
      origin: { surface: "mcp", session: ctx.session, ...(agent === undefined ? {} : { agent }) },
    };
    const skip = ctx.paused.among(state.config.callbacks.map((cb) => cb.name));
    // Background runs start after the blocking ones (formatters), so what they report as
    // rewritten is their own doing.
    try {
      const outcome = await state.engine.run(batch, {
        blocking: true,
        skip,
        signal: ctx.signal,
        resyncTree: state.config.source.resync === "tree",
      });
      runs = outcome.runs;
      resyncs = outcome.resyncs;
      notes = outcome.notes;
    } catch (err) {
      trouble = `callbacks could not run: ${err instanceof Error ? err.message : String(err)}`;
    }
    for (const write of writes) {
      const resync = resyncs.find((r) => r.path === write.path);
      // re-inserted, so the map's order is least recently written first
      ctx.known.delete(write.path);
      if (resync?.newText != null) ctx.known.set(write.path, toAgentSpace(resync.newText).text);
      else if (write.written !== null) ctx.known.set(write.path, write.written);
    }
    forgetOldest(ctx.known);
    background = state.engine
      .plan(batch, { blocking: false, skip })
      .map((p) => ({ callback: p.callback.name, files: p.files }));
    if (background.length > 0) {
      const root = ctx.project.root;
      ctx.track(
        state.engine.run(batch, { blocking: false, skip, signal: ctx.signal }).then(
          (outcome) => {
            const notice = backgroundNotice(outcome, ctx.known);
            if (notice !== null) postNotice(root, ctx.session, { kind: "callbacks", ...notice });
          },
          (err: unknown) => {
            postNotice(root, ctx.session, {
              kind: "callbacks",
              text: `Background callbacks could not run: ${err instanceof Error ? err.message : String(err)}`,
              failing: true,
            });
          },
        ),
      );
    }
  }

  return callResults(writes, { runs, resyncs, notes, background, trouble });
}

/** Most recent first, up to this many bytes in all; a forgotten file's later rewrite says "re-read it" instead of a diff. */
const KNOWN_MAX_CHARS = 32 * 1024 * 1024;

export function forgetOldest(known: Map<string, string>): void {
  let total = 0;
  for (const text of known.values()) total += text.length;
  for (const [path, text] of known) {
    if (total <= KNOWN_MAX_CHARS) break;
    known.delete(path);
    total -= text.length;
  }
}
