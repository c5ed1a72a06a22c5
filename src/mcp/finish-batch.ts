import type { EditBatch, FileChange } from "../engine/batch.ts";
import type { Outcome, Resync, RunResult } from "../engine/outcome.ts";
import { postNotice } from "../session/inbox.ts";
import { shiftRegion } from "./edits.ts";
import type { WriteDone } from "./perform-write.ts";
import type { Project } from "./project.ts";
import { boundedDiff, renderRun } from "./render.ts";
import { resyncNote } from "./resync-note.ts";
import { toAgentSpace } from "./text-file.ts";

export interface FinishContext {
  readonly project: Project;
  readonly session: string;
  readonly agent: () => string | undefined;
  readonly signal: AbortSignal;
  /** The text the agent was last told each file holds (agent space), by path. */
  readonly known: Map<string, string>;
  /** Keeps a background run's promise so shutdown can wait for it. */
  readonly track: (work: Promise<void>) => void;
}

/** One change per path: created, modified or deleted, from the batch's first and last write of it. */
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

/** Move the regions of earlier writes to a file past the later writes to it in this batch. */
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

function relevant(runs: readonly RunResult[], path: string): RunResult[] {
  return runs.filter((r) => r.files.includes(path));
}

/** The text of a background outcome, posted to the inbox for the agent's next call. */
function backgroundNotice(
  outcome: Outcome,
  known: Map<string, string>,
): { text: string; failing: boolean } | null {
  const lines: string[] = [];
  for (const run of outcome.runs) lines.push(...renderRun(run));
  for (const resync of outcome.resyncs) {
    const path = resync.path;
    if (resync.newText === null) {
      lines.push(`A background callback deleted ${path}.`);
      known.delete(path);
      continue;
    }
    const now = toAgentSpace(resync.newText).text;
    const before =
      known.get(path) ?? (resync.oldText === null ? null : toAgentSpace(resync.oldText).text);
    if (before === now) continue;
    known.set(path, now);
    if (before === null) {
      lines.push(`A background callback changed ${path}: re-read it before editing it.`);
    } else {
      lines.push(
        `A background callback rewrote ${path}; re-read it before editing it, or use this diff:`,
        boundedDiff(path, before, now),
      );
    }
  }
  lines.push(...outcome.notes);
  if (lines.length === 0) return null;
  const files = outcome.batch.files.map((f) => f.path);
  const shown = files.length <= 3 ? files.join(", ") : `${files.length} files`;
  const failing = outcome.runs.some((r) => r.status === "failed" || r.status === "timed_out");
  return {
    text: [`Background callbacks for your edits of ${shown} finished:`, ...lines].join("\n"),
    failing,
  };
}

/**
 * Run a closed batch's callbacks and write each call's result: its own summary, the runs
 * for its file (blocking ones finished, non-blocking ones noted as started and delivered
 * later through the inbox), and what a formatter changed in the text it wrote.
 */
export async function finishBatch(
  writes: readonly WriteDone[],
  ctx: FinishContext,
): Promise<string[]> {
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
    // Background runs start once the blocking ones (formatters) are done, so what they
    // report as rewritten is their own doing.
    try {
      const outcome = await state.engine.run(batch, {
        blocking: true,
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
      if (resync?.newText != null) ctx.known.set(write.path, toAgentSpace(resync.newText).text);
      else if (write.written !== null) ctx.known.set(write.path, write.written);
      else ctx.known.delete(write.path);
    }
    background = state.engine
      .plan(batch, { blocking: false })
      .map((p) => ({ callback: p.callback.name, files: p.files }));
    if (background.length > 0) {
      const root = ctx.project.root;
      ctx.track(
        state.engine.run(batch, { blocking: false, signal: ctx.signal }).then(
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

  const paths = new Set(writes.map((w) => w.path));
  const orphanRuns = runs.filter((r) => !r.files.some((f) => paths.has(f)));
  const orphanNotes = notes.filter(
    (n) => !runs.some((r) => r.files.some((f) => paths.has(f)) && n.includes(r.id)),
  );
  const otherFiles = resyncs.filter((r) => !paths.has(r.path));
  return writes.map((write, index) => {
    const lines = [write.summary];
    if (write.gateNote !== null) lines.push(`The write gate changed this write: ${write.gateNote}`);
    const mine = relevant(runs, write.path);
    const runLines = mine.flatMap(renderRun);
    const later = background.filter((b) => b.files.includes(write.path));
    for (const b of later) {
      runLines.push(
        `started ${b.callback} in the background: its result comes with a later tool call`,
      );
    }
    if (runLines.length > 0)
      lines.push(`callbacks for ${write.path}:`, ...runLines.map((l) => `  ${l}`));
    lines.push(...notes.filter((n) => mine.some((r) => n.includes(r.id))));
    const resync = resyncs.find((r) => r.path === write.path);
    if (resync !== undefined && write.kind !== "deleted") lines.push(...resyncNote(write, resync));
    if (index === 0) {
      // What belongs to no single call of the batch is told once, in the first result.
      const other = orphanRuns.flatMap(renderRun);
      if (other.length > 0) lines.push("other callback runs:", ...other.map((l) => `  ${l}`));
      lines.push(...orphanNotes);
      for (const r of otherFiles) lines.push(...otherFileNote(r));
    }
    if (trouble !== null) lines.push(trouble);
    return lines.join("\n");
  });
}

/** A file the batch did not edit that a callback changed (config `resync: "tree"`). */
function otherFileNote(resync: Resync): string[] {
  if (resync.newText === null) return [`A callback deleted ${resync.path}.`];
  if (resync.oldText === null)
    return [`A callback wrote ${resync.path}; read it before editing it.`];
  return [
    `A callback changed ${resync.path}:`,
    boundedDiff(resync.path, toAgentSpace(resync.oldText).text, toAgentSpace(resync.newText).text),
  ];
}
