import { statSync } from "node:fs";
import { dirname, join, resolve, sep } from "node:path";
import { stripJsonComments } from "../../util/json-comments.ts";
import { readRegularFile } from "../../util/read-regular.ts";
import { typescriptVersion } from "./_typescript-version.ts";

const SEPARATORS = new Set(["&&", "||", ";", "|", "&"]);
const TSC = /(^|\/)(tsc|vue-tsc|tsgo)$/;
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
/** A bound on the references followed, so a huge or looping graph costs little. */
const MAX_PROJECTS = 200;
const MAX_TSCONFIG_BYTES = 1 << 20;

/** The projects of a build by their tsconfig's path, each with the tsconfigs it references. */
export type BuildGraph = ReadonlyMap<string, readonly string[]>;

/**
 * `tsc -b` (or `vue-tsc -b`) that leaves a project unbuilt when one it references has
 * errors, and prints nothing about it: with `--stopBuildOnErrors`, or on TypeScript before
 * 5.6, which did so without the flag. Its projects, when some project with files of its own
 * references another; "unknown" when the build cannot be read (it may have stopped before
 * any file); null when it cannot leave a project unbuilt. Where the version cannot be found,
 * it may be before 5.6.
 */
export function tscBuildStops(
  words: readonly string[],
  cwd: string,
): BuildGraph | "unknown" | null {
  let found: BuildGraph | "unknown" | null = null;
  for (const segment of segments(words)) {
    const at = segment.findIndex((w) => TSC.test(w));
    if (at === -1) continue;
    const args = segment.slice(at + 1);
    if (!args.some((a) => a === "-b" || a === "--build")) continue;
    const program = segment[at] as string;
    const flag = args.some(
      (a) => a === "--stopBuildOnErrors" || a.startsWith("--stopBuildOnErrors="),
    );
    // the native compiler is TypeScript 7
    if (!flag && program.endsWith("tsgo")) continue;
    const started = segment.findIndex((w) => !ASSIGNMENT.test(w)) === at;
    if (!flag && buildsOn(typescriptVersion(program, started, cwd))) continue;
    const graph = buildGraph(args, cwd);
    if (graph === "unknown") return graph;
    if (graph !== null) found = graph;
  }
  return found;
}

/**
 * The files of `files` (relative to `root`) in a project the build left unbuilt: one that
 * references, directly or not, a project with a file it reported on (`named`). A file maps
 * to the projects whose tsconfig is in its deepest folder that has one; a file in no project,
 * or a report on a file in none, leaves every file it did not name possibly unbuilt.
 */
export function unbuiltFiles(
  graph: BuildGraph,
  root: string,
  files: readonly string[],
  named: ReadonlySet<string>,
): string[] {
  const failing = new Set<string>();
  for (const file of named) {
    const projects = projectsOf(graph, resolve(root, file));
    if (projects.length === 0) return files.filter((f) => !named.has(f));
    for (const p of projects) failing.add(p);
  }
  const skipped = new Map<string, boolean>();
  const isSkipped = (project: string, path: Set<string>): boolean => {
    const known = skipped.get(project);
    if (known !== undefined) return known;
    if (path.has(project)) return false;
    path.add(project);
    const refs = graph.get(project) ?? [];
    const result = refs.some((r) => failing.has(r) || isSkipped(r, path));
    path.delete(project);
    skipped.set(project, result);
    return result;
  };
  return files.filter((f) => {
    if (named.has(f)) return false;
    const projects = projectsOf(graph, resolve(root, f));
    return projects.length === 0 || projects.some((p) => isSkipped(p, new Set()));
  });
}

function projectsOf(graph: BuildGraph, file: string): string[] {
  let best: string[] = [];
  let depth = -1;
  for (const tsconfig of graph.keys()) {
    const dir = dirname(tsconfig);
    if (!file.startsWith(dir === sep ? dir : dir + sep)) continue;
    if (dir.length > depth) {
      best = [tsconfig];
      depth = dir.length;
    } else if (dir.length === depth) best.push(tsconfig);
  }
  return best;
}

function segments(words: readonly string[]): string[][] {
  const out: string[][] = [[]];
  for (const w of words) {
    if (SEPARATORS.has(w)) out.push([]);
    else (out[out.length - 1] as string[]).push(w);
  }
  return out;
}

/** 5.6 and later build every project whose references built, and report each one's errors. */
function buildsOn(version: string | undefined): boolean {
  const m = /^(\d+)\.(\d+)/.exec(version ?? "");
  if (m === null) return false;
  const major = Number(m[1]);
  return major > 5 || (major === 5 && Number(m[2]) >= 6);
}

/** The projects `tsc -b <args>` builds; null when none with files of its own references another. */
function buildGraph(args: readonly string[], cwd: string): BuildGraph | "unknown" | null {
  const given = args
    .filter((a) => !a.startsWith("-"))
    .map((a) => resolve(cwd, a))
    .filter((p) => statSync(p, { throwIfNoEntry: false }) !== undefined);
  const queue = (given.length > 0 ? given : [cwd]).map(tsconfigAt);
  const graph = new Map<string, string[]>();
  let dependent = false;
  while (queue.length > 0) {
    const path = queue.shift() as string;
    if (graph.has(path)) continue;
    if (graph.size >= MAX_PROJECTS) return "unknown";
    const config = readJson(path);
    if (config === null) return "unknown";
    const refs: string[] = [];
    for (const ref of Array.isArray(config.references) ? config.references : []) {
      const to = (ref as { path?: unknown } | null)?.path;
      if (typeof to !== "string") return "unknown";
      refs.push(tsconfigAt(resolve(dirname(path), to)));
    }
    if (refs.length > 0 && hasOwnFiles(config)) dependent = true;
    graph.set(path, refs);
    queue.push(...refs);
  }
  return dependent ? graph : null;
}

function tsconfigAt(path: string): string {
  return statSync(path, { throwIfNoEntry: false })?.isDirectory() === true
    ? join(path, "tsconfig.json")
    : path;
}

/** Only a solution config (`"files": []`, no include, nothing it extends) has none. */
function hasOwnFiles(config: Record<string, unknown>): boolean {
  const empty = (v: unknown) => Array.isArray(v) && v.length === 0;
  return !(
    empty(config.files) &&
    (config.include === undefined || empty(config.include)) &&
    config.extends === undefined
  );
}

/** A reference may name any path: only a regular file of bounded size is read (a FIFO would block). */
function readJson(path: string): Record<string, unknown> | null {
  try {
    const bytes = readRegularFile(path, MAX_TSCONFIG_BYTES);
    if (bytes === null) return null;
    const json: unknown = JSON.parse(stripJsonComments(bytes.toString("utf8")));
    return typeof json === "object" && json !== null && !Array.isArray(json)
      ? (json as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}
