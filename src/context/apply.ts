import { createTwoFilesPatch } from "diff";
import { isInside } from "../util/contained-path.ts";
import { openTargetAt } from "../util/contained-write.ts";
import { type DiffStretch, MdDoc } from "./_doc.ts";
import { type FileState, writeFiles } from "./_files.ts";
import { readTextFileIn, type TextFile } from "./_text-file.ts";
import { applyToDoc } from "./actions.ts";
import { MAX_CONTEXT_FILE_BYTES, mib } from "./limits.ts";
import { lockContext } from "./lock.ts";
import { parseUpdates } from "./parse.ts";
import { type ContextFile, type ContextPlace, contextPlace, resolveContextFile } from "./paths.ts";
import type { ApplyOptions, ApplyReport, UpdateCommand, UpdateResult } from "./types.ts";
import { DEFAULT_ALLOWED_FILES, validateUpdate } from "./validate.ts";

/** Remembers backups and touched blocks across batches. */
export interface ContextSession {
  /** Each changed file written once, atomically. */
  apply(input: string | readonly UpdateCommand[]): ApplyReport;
}

/** Past this a diff's cost grows with the square of the changed lines. */
const MAX_DIFF_EDIT = 5000;
const CONTEXT = 4;

/** Each stretch is diffed alone, its hunks numbered as in the whole file; "" when nothing changed. */
function unifiedDiff(from: string, to: string, stretches: readonly DiffStretch[]): string {
  const hunks: string[] = [];
  for (const { before, after, oldFirst, newFirst } of stretches) {
    if (before === after) continue;
    const patch = createTwoFilesPatch(from, to, before, after, undefined, undefined, {
      context: CONTEXT,
      maxEditLength: MAX_DIFF_EDIT,
    });
    if (patch === undefined)
      return `--- ${from}\n+++ ${to}\n(diff not shown: over ${MAX_DIFF_EDIT} lines changed)\n`;
    const body = patch.slice(patch.indexOf("\n@@") + 1);
    const shift = (n: string, by: number) => String(Number(n) === 0 ? 0 : Number(n) + by);
    hunks.push(
      body.replace(
        /^@@ -(\d+)((?:,\d+)?) \+(\d+)((?:,\d+)?) @@/gm,
        (_, a: string, b: string, c: string, d: string) =>
          `@@ -${shift(a, oldFirst)}${b} +${shift(c, newFirst)}${d} @@`,
      ),
    );
  }
  return hunks.length === 0 ? "" : `--- ${from}\n+++ ${to}\n${hunks.join("")}`;
}

function baseResult(command: UpdateCommand): UpdateResult {
  const result: UpdateResult = {
    file: command.file,
    action: command.action,
    ok: false,
    diff: "",
    warnings: [],
  };
  if (command.section !== undefined) result.section = command.section;
  if (command.id !== undefined) result.id = command.id;
  if (command.line !== undefined) result.line = command.line;
  return result;
}

function fail(
  result: UpdateResult,
  error: string,
  hint?: string,
  candidates?: string[],
): UpdateResult {
  result.error = error;
  if (hint !== undefined) result.hint = hint;
  if (candidates !== undefined && candidates.length > 0) result.candidates = candidates;
  return result;
}

/** Through its held, checked folder (a folder not there yet: no file). */
function loadState(
  place: Extract<ContextPlace, { ok: true }>,
  target: Extract<ContextFile, { ok: true }>,
): FileState | string {
  let read: TextFile;
  try {
    const at = openTargetAt(place.within, target.path);
    try {
      read = readTextFileIn(at.dir, at.name);
    } finally {
      at.dir.close();
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") return (err as Error).message;
    read = { kind: "missing" };
  }
  if (read.kind === "error") return read.message;
  const found = read.kind === "ok" ? read : null;
  return {
    path: target.path,
    relative: target.relative,
    original: found?.bytes ?? null,
    doc: found === null ? null : new MdDoc(found.text),
    bom: found?.bom ?? false,
    results: [],
  };
}

/** Several `apply` calls (blocks from a followed log) share one backup per file and warn on conflicting blocks. */
export function createContextSession(options: ApplyOptions): ContextSession {
  const allowed = options.allowedFiles ?? DEFAULT_ALLOWED_FILES;
  const backedUp = new Set<string>();
  const touched = new Map<string, Map<string, string>>();
  /** With dryRun nothing is written, so later batches must see earlier ones in memory. */
  const dryRunStates = new Map<string, FileState>();
  const moveCompleted = options.moveCompleted ?? false;

  function applyOne(
    command: UpdateCommand,
    states: Map<string, FileState>,
    place: ContextPlace,
    locked: string | null,
  ): UpdateResult {
    const result = baseResult(command);
    const problems = validateUpdate(command, { allowedFiles: allowed });
    if (problems.length > 0) {
      const verb = command.action === "" ? "apply" : command.action;
      return fail(
        result,
        `Cannot ${verb} "${command.file}": ${problems.join("; ")}`,
        problems.some((problem) => problem.startsWith("file "))
          ? `name a file inside the context directory matching ${allowed.join(", ")}, e.g. file="TASKS.md"`
          : "fix the block's attributes and content",
      );
    }
    if (!place.ok) return fail(result, place.error, place.hint);
    if (locked !== null)
      return fail(result, locked, "apply again once the other update is done, or check the folder");
    const target = resolveContextFile(options.contextDir, command.file, allowed);
    if (!target.ok) return fail(result, target.error, target.hint);
    if (!isInside(place.real, target.path)) {
      // The folder was swapped for a link since it was checked.
      const error = `Cannot use "${command.file}": the context folder ${options.contextDir} changed while the update ran (now it leads to ${target.path})`;
      return fail(result, error, "apply again; keep the context folder a plain folder");
    }
    const state = states.get(target.path) ?? loadState(place, target);
    if (typeof state === "string") return fail(result, `Cannot read "${command.file}": ${state}`);
    states.set(target.path, state);
    if (state.doc === null && command.action !== "add") {
      const what = `Cannot ${command.action} "${command.id ?? ""}" in "${command.file}"`;
      return fail(result, `${what}: the file does not exist`, 'only action="add" creates a file');
    }
    const doc = state.doc ?? new MdDoc("");
    const mark = doc.mark();
    const out = applyToDoc(doc, command, {
      file: command.file,
      moveCompleted,
      now: options.now ?? new Date(),
    });
    if (!out.ok) return fail(result, out.error, out.hint, out.candidates);
    const size = doc.byteLength;
    if (size > MAX_CONTEXT_FILE_BYTES) {
      doc.undoTo(mark);
      return fail(
        result,
        `Cannot ${command.action} in "${command.file}": the file would be ${mib(size)}, over the ${mib(MAX_CONTEXT_FILE_BYTES)} limit for a context file`,
        "keep context files short: move old entries out, or split the file",
      );
    }
    const seen = touched.get(target.path) ?? new Map<string, string>();
    touched.set(target.path, seen);
    const where =
      command.line === undefined ? "an earlier block" : `the block at line ${command.line}`;
    const [first, ...rest] = out.touched;
    const earlier = first === undefined || command.action === "add" ? undefined : seen.get(first);
    if (earlier !== undefined) result.warnings.push(`this block was also changed by ${earlier}`);
    for (const label of [first, ...rest]) if (label) seen.set(label, where);
    const created = state.original === null && state.doc === null;
    result.diff = unifiedDiff(
      created ? "/dev/null" : `a/${state.relative}`,
      `b/${state.relative}`,
      doc.diffSince(mark, CONTEXT),
    );
    state.doc = doc;
    state.results.push(result);
    result.ok = true;
    result.warnings.push(...out.warnings);
    return result;
  }

  return {
    apply(input) {
      const parsed =
        typeof input === "string" ? parseUpdates(input) : { updates: input, errors: [] };
      const place = contextPlace(options.contextDir, options.projectRoot);
      // Under the folder's lock, so concurrent updates (agents, hooks, CLIs) see each other's
      // writes.
      const lock =
        options.dryRun || !place.ok || parsed.updates.length === 0
          ? null
          : lockContext(
              place,
              parsed.updates.some((c) => c.action === "add"),
            );
      try {
        const states = options.dryRun ? dryRunStates : new Map<string, FileState>();
        const problem = lock !== null && "problem" in lock ? lock.problem : null;
        const results = parsed.updates.map((command) => applyOne(command, states, place, problem));
        if (!options.dryRun && place.ok && problem === null) {
          writeFiles(states.values(), options.backup ?? false, backedUp, (path) =>
            openTargetAt(place.within, path, { create: true }),
          );
        }
        return { results, parseErrors: parsed.errors };
      } finally {
        if (lock !== null && "release" in lock) lock.release();
      }
    },
  };
}

/**
 * Later blocks see earlier ones; each changed file is written once, atomically.
 *
 * @example
 * const { results, parseErrors } = applyUpdates(agentReply, { contextDir: "/repo/.context", backup: true });
 */
export function applyUpdates(
  input: string | readonly UpdateCommand[],
  options: ApplyOptions,
): ApplyReport {
  return createContextSession(options).apply(input);
}
