import { lstatSync } from "node:fs";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { loadAgent } from "../agents/registry.ts";
import { evaluateWrite, resolveGateConfig } from "../gate/index.ts";
import { checkPath } from "../gate/rules.ts";
import { refusedUnloaded, stateDirsHere } from "../hook/edit-gate.ts";
import { unloadedConfig } from "../hook/messages.ts";
import type { GateConfig } from "../model/gate-schema.ts";
import type { GateDecision, PendingWrite } from "../model/gate-types.ts";
import { containPath, physicalPath } from "../util/contained-path.ts";
import {
  existingFolder,
  MovedError,
  openTargetAt,
  removeFileIn,
  type Target,
  writeFileIn,
} from "../util/contained-write.ts";
import { applyEdits, type Edit, type Region, type Splice } from "./edits.ts";
import { describeEditFailure } from "./nearest.ts";
import { heldBy, packageGate } from "./package-gate.ts";
import {
  fromAgent,
  keepFinalNewline,
  MAX_TEXT_BYTES,
  readAgentText,
  type TextShape,
  toAgentSpace,
  toDiskSpace,
} from "./text-file.ts";

/** Paths as the agent gave them. */
export type WriteRequest =
  | { tool: "write_file"; path: string; content: string }
  | { tool: "edit_file" | "multi_edit"; path: string; edits: readonly Edit[] }
  | { tool: "delete_file"; path: string };

export interface WriteDone {
  readonly tool: WriteRequest["tool"];
  /** Posix, relative to the root: where it really went (after the gate). */
  readonly path: string;
  readonly kind: "created" | "modified" | "deleted";
  /** Agent space; null for a delete. */
  readonly written: string | null;
  readonly shape: TextShape | null;
  /** Edits only; null when unknown. */
  regions: (Region | null)[][] | null;
  /** Edits only: to move regions found by earlier calls. */
  readonly splices: readonly Splice[] | null;
  readonly gateNote: string | null;
  readonly summary: string;
}

export interface WriteRefused {
  readonly refused: string;
}

export interface WriteContext {
  readonly root: string;
  readonly gate: GateConfig;
  readonly agent: string;
  readonly session: string;
  /** Writes are refused while it does not. */
  readonly unloaded?: string;
}

function posix(path: string): string {
  return path.split(sep).join("/");
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function lineCount(text: string): number {
  if (text === "") return 0;
  return text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
}

function lineOfOffset(text: string, offset: number): number {
  let n = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

async function gate(
  request: WriteRequest,
  ctx: WriteContext,
  extra: Partial<PendingWrite>,
  log = true,
): Promise<GateDecision> {
  const write = {
    tool: request.tool,
    path: request.path,
    agent: ctx.agent,
    session: ctx.session,
    ...extra,
  };
  // An MCP client that names itself as an agent cpilot knows gets that agent's notes folders.
  const agent = await loadAgent(ctx.agent);
  const stateDirs = agent === undefined ? [] : stateDirsHere(agent);
  if (ctx.unloaded === undefined) {
    const decision = await evaluateWrite(write, {
      root: ctx.root,
      config: ctx.gate,
      tty: false,
      log,
      stateDirs,
    });
    return decision.decision === "deny"
      ? decision
      : heldByPackage(ctx.root, write, decision, log, stateDirs);
  }
  // The config did not load: its rules and plugins cannot decide. The built-in protections
  // still do (no user code), and their reason comes first; whatever they allow is refused.
  const why = ctx.unloaded.split("\n")[0] ?? ctx.unloaded;
  const builtIn = await evaluateWrite(write, {
    root: ctx.root,
    config: {},
    tty: false,
    log,
    stateDirs,
  });
  if (builtIn.decision === "deny") {
    return {
      ...builtIn,
      reason: `${builtIn.reason}${unloadedConfig(why)}`,
    };
  }
  return refusedUnloaded(builtIn, request.path, why);
}

/**
 * What the project's gate allowed, held to the gate of the package the file is in (see
 * package-gate.ts): its refusal wins; else the project's decision stands, unless only the
 * package's rewrote the content.
 */
async function heldByPackage(
  root: string,
  write: PendingWrite,
  decision: GateDecision,
  log: boolean,
  stateDirs: string[],
): Promise<GateDecision> {
  return heldBy(decision, await packageGate(root, write, { log, stateDirs }));
}

function editFields(request: WriteRequest): Partial<PendingWrite> {
  if (request.tool !== "edit_file") return {};
  const edit = request.edits[0];
  if (edit === undefined) return {};
  return {
    oldString: edit.oldString,
    newString: edit.newString,
    ...(edit.replaceAll === undefined ? {} : { replaceAll: edit.replaceAll }),
  };
}

/** Inside the root, or wherever the gate allows. */
async function locate(
  request: WriteRequest,
  ctx: WriteContext,
): Promise<{ absolute: string; inside: boolean } | WriteRefused> {
  const contained = containPath(ctx.root, request.path);
  if (contained.ok) return { absolute: contained.absolute, inside: true };
  const decision = await gate(request, ctx, editFields(request));
  if (decision.decision === "deny") return { refused: decision.reason };
  return { absolute: decision.path, inside: false };
}

/** For a path outside the project that the gate allowed, that path's own folder as it is now. */
function holdingRoot(ctx: WriteContext, path: string, inside: boolean): string {
  return inside ? ctx.root : existingFolder(dirname(physicalPath(resolve(path)) ?? resolve(path)));
}

/** Held so the write lands where it was checked; null when a folder on the way is missing (made with `create`). A symlink put there since is replaced. */
function target(real: string, root: string, create: boolean): Target | null {
  try {
    return openTargetAt(root, real, { create });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
}

/**
 * A symlink inside the root is written through. When its target is another file than the
 * gate was asked about (the link may have been put there while it decided), the gate's
 * protections and rules must allow the target too.
 */
function landing(ctx: WriteContext, path: string, inside: boolean): string | WriteRefused {
  const real = physicalPath(resolve(path));
  if (real === null)
    return { refused: `Cannot write ${JSON.stringify(path)}: its symlinks form a loop` };
  if (!inside || real === path) return real;
  let config: ReturnType<typeof resolveGateConfig> | null = null;
  try {
    config = resolveGateConfig(ctx.gate);
  } catch {
    // a gate section that does not resolve: the built-in protections only
    config = resolveGateConfig({});
  }
  const verdict = checkPath(ctx.root, real, config);
  if (!verdict.ok) return { refused: verdict.reason };
  if (verdict.hit.action === "deny") {
    return {
      refused: `Cannot write ${JSON.stringify(path)}: it leads to ${verdict.relative}: ${verdict.hit.reason}`,
    };
  }
  return real;
}

/** Held to the limit edits read files with: what the tools could not edit or read back is not written. */
function overLimit(shown: string, data: string): WriteRefused | null {
  const bytes = Buffer.byteLength(data, "utf8");
  if (bytes <= MAX_TEXT_BYTES) return null;
  return {
    refused: `Cannot write ${shown}: it would be ${bytes} bytes, over the ${MAX_TEXT_BYTES}-byte (${MAX_TEXT_BYTES / 1024 / 1024} MiB) limit for files written, edited and read through cpilot's MCP tools; nothing was written\nhint: generate a file that large with a script or command instead`,
  };
}

function cannot(verb: string, shown: string, err: unknown): WriteRefused {
  const why = err instanceof Error ? err.message : String(err);
  if (err instanceof MovedError) {
    return {
      refused: `Cannot ${verb} ${shown}: a folder on its path changed while it was being written (${why}); nothing was ${verb === "delete" ? "deleted" : "written"}\nhint: a symlink was put in place of a folder: write only inside the project`,
    };
  }
  return { refused: `Cannot ${verb} ${shown}: ${why}` };
}

/** Writes atomically in the file's own line endings. The agent's mistakes come back as `{ refused }`, never thrown. */
export async function performWrite(
  request: WriteRequest,
  ctx: WriteContext,
): Promise<WriteDone | WriteRefused> {
  const where = await locate(request, ctx);
  if ("refused" in where) return where;
  const shown = JSON.stringify(request.path);
  // A delete needs no content; it removes the name itself (a link, not what it points at).
  let current: ReturnType<typeof readAgentText> = { kind: "missing" };
  if (request.tool !== "delete_file") {
    const source = landing(ctx, where.absolute, where.inside);
    if (typeof source !== "string") return source;
    try {
      const at = target(source, holdingRoot(ctx, source, where.inside), false);
      try {
        current = at === null ? { kind: "missing" } : readAgentText(at);
      } finally {
        at?.dir.close();
      }
    } catch (err) {
      return cannot("change", shown, err);
    }
    if ("kind" in current && current.kind === "not-text") {
      return { refused: `Cannot change ${shown}: ${current.reason}` };
    }
  }

  if (request.tool === "delete_file") {
    const decision = await gate(request, ctx, {});
    if (decision.decision === "deny") return { refused: decision.reason };
    // A link is deleted itself, not the file it points at: only its folder is resolved.
    const inside = decision.relativePath !== undefined;
    const parent = dirname(decision.path);
    const real = join(physicalPath(parent) ?? parent, basename(decision.path));
    let isDir = false;
    let at: Target;
    try {
      at = openTargetAt(holdingRoot(ctx, real, inside), real);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") return cannot("delete", shown, err);
      return {
        refused: `Cannot delete ${shown}: no such file\nhint: it may already be gone; read_file or your file listing shows what exists`,
      };
    }
    try {
      try {
        isDir = lstatSync(at.dir.at(at.name)).isDirectory();
      } catch {
        return {
          refused: `Cannot delete ${shown}: no such file\nhint: it may already be gone; read_file or your file listing shows what exists`,
        };
      }
      if (isDir)
        return {
          refused: `Cannot delete ${shown}: it is a directory; delete_file removes one file`,
        };
      removeFileIn(at.dir, at.name);
    } catch (err) {
      return cannot("delete", shown, err);
    } finally {
      at.dir.close();
    }
    const path = decision.relativePath ?? posix(relative(ctx.root, decision.path));
    return done(request, path, "deleted", null, null, null, null, null, `Deleted ${path}`);
  }

  const existing = "text" in current ? current : null;
  const shape = existing?.shape ?? null;
  let text: string;
  let regions: (Region | null)[][] | null = null;
  let splices: Splice[] | null = null;
  let summary: (path: string) => string;
  if (request.tool === "write_file") {
    text = keepFinalNewline(fromAgent(request.content, shape), shape);
    const lines = plural(lineCount(text), "line");
    summary = (path) => `${existing ? "Replaced" : "Created"} ${path} (${lines})`;
  } else {
    const edits = request.edits.map((e) => ({
      oldString: fromAgent(e.oldString, shape),
      newString: fromAgent(e.newString, shape),
      ...(e.replaceAll === undefined ? {} : { replaceAll: e.replaceAll }),
    }));
    const creating = existing === null || existing.text === "";
    if (creating && edits.length === 1 && edits[0]!.oldString === "") {
      text = edits[0]!.newString;
      regions = [[{ start: 0, end: text.length }]];
      splices = [{ at: 0, removed: existing?.text.length ?? 0, inserted: text.length }];
      const lines = plural(lineCount(text), "line");
      summary = (path) => `${existing ? "Filled" : "Created"} ${path} (${lines})`;
    } else if (existing === null) {
      return {
        refused: `Cannot edit ${shown}: no such file\nhint: write_file creates a file (or edit_file with an empty old_string)`,
      };
    } else {
      const result = applyEdits(existing.text, edits);
      if (!result.ok) {
        // Say nothing about the file's content when the gate would not let it be written.
        const decision = await gate(request, ctx, editFields(request), false);
        if (decision.decision === "deny") return { refused: decision.reason };
        return { refused: describeEditFailure(result.failure, request.path, edits) };
      }
      text = keepFinalNewline(result.text, shape);
      regions = result.regions;
      splices = result.splices;
      const lines = result.regions
        .flat()
        .filter((r): r is Region => r !== null)
        .map((r) => lineOfOffset(text, r.start));
      const at = [...new Set(lines)].sort((a, b) => a - b);
      const place =
        at.length === 1
          ? `line ${at[0]}`
          : `lines ${at.slice(0, 12).join(", ")}${at.length > 12 ? ", …" : ""}`;
      const count =
        request.tool === "multi_edit"
          ? `${plural(edits.length, "edit")}, ${plural(result.replacements, "replacement")}`
          : plural(result.replacements, "replacement");
      summary = (path) => `Edited ${path}: ${count} (${place})`;
    }
  }

  const data = toDiskSpace(text, shape);
  const tooBig = overLimit(shown, data);
  if (tooBig !== null) return tooBig;
  const decision = await gate(request, ctx, { content: data, ...editFields(request) });
  if (decision.decision === "deny") return { refused: decision.reason };
  const written = decision.content ?? data;
  const modifiedTooBig = overLimit(shown, written);
  if (modifiedTooBig !== null) return modifiedTooBig;
  let existedBefore = false;
  try {
    const inside = decision.relativePath !== undefined;
    const real = landing(ctx, decision.path, inside);
    if (typeof real !== "string") return real;
    const at = target(real, holdingRoot(ctx, real, inside), true);
    if (at === null) throw new Error("its folder could not be made");
    try {
      existedBefore = lstatSync(at.dir.at(at.name), { throwIfNoEntry: false }) !== undefined;
      writeFileIn(at.dir, at.name, written);
    } finally {
      at.dir.close();
    }
  } catch (err) {
    return cannot("write", shown, err);
  }
  const path = decision.relativePath ?? posix(relative(ctx.root, decision.path));
  const gateChanged = decision.content !== undefined && decision.content !== data;
  const movedTo = decision.path !== where.absolute;
  const agentText = gateChanged ? toAgentSpace(written).text : text;
  if (gateChanged) regions = regions === null ? null : regions.map((list) => list.map(() => null));
  const eolNote = shape?.eol === "\r\n" ? " (kept its CRLF line endings)" : "";
  return done(
    request,
    path,
    existedBefore ? "modified" : "created",
    agentText,
    shape,
    regions,
    gateChanged ? null : splices,
    decision.modified?.summary ?? (movedTo ? `the gate moved the write to ${path}` : null),
    summary(path) + eolNote,
  );
}

function done(
  request: WriteRequest,
  path: string,
  kind: WriteDone["kind"],
  written: string | null,
  shape: TextShape | null,
  regions: (Region | null)[][] | null,
  splices: Splice[] | null,
  gateNote: string | null,
  summary: string,
): WriteDone {
  return { tool: request.tool, path, kind, written, shape, regions, splices, gateNote, summary };
}
