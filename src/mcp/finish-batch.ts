import { relative, sep } from "node:path";
import { postNotice } from "../agent-session/inbox.ts";
import type { EditBatch, FileChange } from "../model/batch.ts";
import type { Outcome, Resync, RunResult } from "../model/outcome.ts";
import { outcomeSeenFrom, pathMove } from "../ui/seen-from.ts";
import { backgroundNotice } from "./background-notice.ts";
import type { CallAnswer } from "./batcher.ts";
import { callResults } from "./call-result.ts";
import { shiftRegion } from "./edits.ts";
import { type Judge, packageJudges, type Unjudged } from "./package-judges.ts";
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
  const found: Found = { runs: [], resyncs: [], notes: [], judgedBy: new Map(), troubles: [] };
  const background: { callback: string; files: readonly string[] }[] = [];
  let unjudged: readonly Unjudged[] = [];
  if (state.kind === "broken") {
    found.troubles.push(`callbacks did not run: the config does not load:\n${state.error}`);
  }
  if (changes.length > 0) {
    const agent = ctx.agent();
    const batch: EditBatch = {
      root: ctx.project.root,
      files: changes,
      origin: { surface: "mcp", session: ctx.session, ...(agent === undefined ? {} : { agent }) },
    };
    const judges: Judge[] = [];
    let leftOut: ReadonlyMap<string, string> | undefined;
    if (state.kind === "ok") {
      const own: Judge = { config: state.config, engine: state.engine, batch, label: null };
      judges.push(own);
      leftOut = (await judge(own, ctx, found))?.leftOut;
    }
    // A package's own config judges its files, whether the project's config loaded or not,
    // and a package inside it judges its own in turn.
    const packages = await packageJudges(batch, leftOut);
    const left: Unjudged[] = [...packages.unjudged];
    const queue = [...packages.judges];
    for (let one = queue.shift(); one !== undefined; one = queue.shift()) {
      judges.push(one);
      ctx.project.notePackage(one.config.root);
      const outcome = await judge(one, ctx, found);
      const inner = await packageJudges(one.batch, outcome?.leftOut, ctx.project.root);
      queue.push(...inner.judges);
      left.push(...inner.unjudged);
    }
    unjudged = left;
    for (const write of writes) {
      const resync = found.resyncs.find((r) => r.path === write.path);
      // re-inserted, so the map's order is least recently written first
      ctx.known.delete(write.path);
      if (resync?.newText != null) ctx.known.set(write.path, toAgentSpace(resync.newText).text);
      else if (write.written !== null) ctx.known.set(write.path, write.written);
    }
    forgetOldest(ctx.known);
    // Background runs start after the blocking ones (formatters), so what they report as
    // rewritten is their own doing.
    for (const one of judges) background.push(...startBackground(one, ctx));
  }

  return callResults(writes, {
    runs: found.runs,
    resyncs: found.resyncs,
    notes: found.notes,
    background,
    trouble: found.troubles.length === 0 ? null : found.troubles.join("\n"),
    judgedBy: found.judgedBy,
    unjudged,
  });
}

/** What the batch's blocking runs found, every path relative to the project root. */
interface Found {
  readonly runs: RunResult[];
  readonly resyncs: Resync[];
  readonly notes: string[];
  /** Run id to the package config that judged it. */
  readonly judgedBy: Map<string, string>;
  readonly troubles: string[];
}

/** What the agent paused of this config's callbacks: a pause names the config's folder. */
function pausedIn(one: Judge, ctx: FinishContext): string[] {
  const folder = relative(ctx.project.root, one.config.root).split(sep).join("/");
  return ctx.paused.among(
    one.config.callbacks.map((cb) => cb.name),
    one.label === null ? "" : folder,
  );
}

/** One config's blocking runs over its edits; null when they could not run (told in `found`). */
async function judge(one: Judge, ctx: FinishContext, found: Found): Promise<Outcome | null> {
  const skip = pausedIn(one, ctx);
  try {
    const outcome = await one.engine.run(one.batch, {
      blocking: true,
      skip,
      signal: ctx.signal,
      resyncTree: one.config.source.resync === "tree",
    });
    const seen = outcomeSeenFrom(outcome, ctx.project.root);
    found.runs.push(...seen.runs);
    found.resyncs.push(...seen.resyncs);
    found.notes.push(
      ...seen.notes.map((note) => noteSeenFrom(note, one.config.root, ctx.project.root)),
    );
    if (one.label !== null) for (const run of seen.runs) found.judgedBy.set(run.id, one.label);
    return outcome;
  } catch (err) {
    const by = one.label === null ? "" : ` (judged by ${one.label})`;
    found.troubles.push(
      `callbacks${by} could not run: ${err instanceof Error ? err.message : String(err)}`,
    );
    return null;
  }
}

/** A package's "inner/ left out: ..." note, its folder named from the project root. */
function noteSeenFrom(note: string, root: string, top: string): string {
  const move = pathMove(root, top);
  const folder = /^(.+)\/ left out: /.exec(note)?.[1];
  return move === null || folder === undefined
    ? note
    : `${move(folder)}${note.slice(folder.length)}`;
}

/** One config's non-blocking runs, their result posted to the session's inbox when done. */
function startBackground(
  one: Judge,
  ctx: FinishContext,
): { callback: string; files: readonly string[] }[] {
  const skip = pausedIn(one, ctx);
  const root = ctx.project.root;
  const move = pathMove(one.batch.root, root) ?? ((path: string) => path);
  const planned = one.engine
    .plan(one.batch, { blocking: false, skip })
    .map((p) => ({ callback: p.callback.name, files: p.files.map(move) }));
  if (planned.length === 0) return planned;
  const by = one.label === null ? "" : `judged by ${one.label}:\n`;
  ctx.track(
    one.engine.run(one.batch, { blocking: false, skip, signal: ctx.signal }).then(
      (outcome) => {
        const notice = backgroundNotice(outcomeSeenFrom(outcome, root), ctx.known);
        if (notice !== null)
          postNotice(root, ctx.session, { kind: "callbacks", ...notice, text: by + notice.text });
      },
      (err: unknown) => {
        postNotice(root, ctx.session, {
          kind: "callbacks",
          text: `${by}Background callbacks could not run: ${err instanceof Error ? err.message : String(err)}`,
          failing: true,
        });
      },
    ),
  );
  return planned;
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
