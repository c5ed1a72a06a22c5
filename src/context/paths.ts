import { statSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { containPath, physicalPath } from "../util/contained-path.ts";
import { existingFolder, realFolder } from "../util/contained-write.ts";
import { below } from "../util/verified-dir.ts";
import { matchesGlob } from "./_glob.ts";
import { fileNameProblems } from "./validate.ts";

export type ContextFile =
  | {
      ok: true;
      /** The real file, so a symlink inside the dir stays a symlink. */
      path: string;
      /** Posix separators. */
      relative: string;
    }
  | { ok: false; error: string; hint: string };

/**
 * Refused: absolute paths, `..`, names outside `allowed`, symlinks leading out of the
 * directory or to a disallowed name, and anything that exists but is not a regular file.
 */
export function resolveContextFile(
  contextDir: string,
  file: string,
  allowed: readonly string[],
): ContextFile {
  const hint = `name a file inside the context directory matching ${allowed.join(", ")}, e.g. file="TASKS.md"`;
  const problems = fileNameProblems(file, allowed);
  if (problems.length > 0)
    return { ok: false, error: `Cannot use "${file}": ${problems.join("; ")}`, hint };
  const contained = containPath(contextDir, file);
  if (!contained.ok) return { ok: false, error: `Cannot use "${file}": ${contained.reason}`, hint };
  if (!matchesGlob(contained.relative, allowed)) {
    const error = `Cannot use "${file}": it leads through a symlink to ${contained.relative}, which is not an allowed context file`;
    return { ok: false, error, hint };
  }
  const path = join(realFolder(contextDir), contained.relative);
  try {
    if (!statSync(path).isFile()) {
      return {
        ok: false,
        error: `Cannot use "${file}": it exists but is not a regular file`,
        hint,
      };
    }
  } catch {
    // a missing file is fine here: add creates it, the others report it
  }
  return { ok: true, path, relative: contained.relative };
}

/**
 * The one containment rule of every surface that applies context updates (CLI, Stop hook,
 * MCP): a folder named relative to the project must really be inside it (a symlink leading
 * out is refused); a folder the person named outright is held inside itself.
 */
export type ContextPlace =
  | {
      ok: true;
      /** Every write stays inside this real folder (opened step by step from here). */
      within: string;
      real: string;
      /** Posix separators; "" when the same. */
      rel: string;
    }
  | { ok: false; error: string; hint: string };

export function contextPlace(contextDir: string, projectRoot?: string): ContextPlace {
  const real = physicalPath(resolve(contextDir));
  const hint =
    "keep the context folder inside the project, or name it with an absolute context.dir";
  if (real === null) {
    return {
      ok: false,
      error: `Cannot use the context folder ${contextDir}: its symlinks form a loop`,
      hint,
    };
  }
  const within = projectRoot === undefined ? existingFolder(real) : realFolder(projectRoot);
  const rel = below(within, real);
  if (rel === null) {
    return {
      ok: false,
      error: `Cannot use the context folder ${contextDir}: it leads outside the project, to ${real}`,
      hint,
    };
  }
  return { ok: true, within, real, rel };
}

/** `context.dir`, default `.context`: a relative one must really be inside the project; an absolute one is the person's choice. */
export function projectContext(
  root: string,
  dir: string | undefined,
): { contextDir: string; projectRoot?: string } {
  const contextDir = resolve(root, dir ?? ".context");
  return dir !== undefined && isAbsolute(dir) ? { contextDir } : { contextDir, projectRoot: root };
}
