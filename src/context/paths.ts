import { realpathSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { containPath, isInside, physicalPath } from "../util/contained-path.ts";
import { matchesGlob } from "./_glob.ts";
import { fileNameProblems } from "./validate.ts";

export type ContextFile =
  | {
      ok: true;
      /** Where reads and writes go: the real file, so a symlink inside the dir stays a symlink. */
      path: string;
      /** That path relative to the context directory, posix separators. */
      relative: string;
    }
  | { ok: false; error: string; hint: string };

function realDir(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return resolve(dir);
  }
}

/**
 * Resolve a block's `file` inside the context directory. Refused: absolute paths, `..`,
 * names outside `allowed`, symlinks that lead out of the directory or to a disallowed name,
 * and anything that exists but is not a regular file.
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
  const path = join(realDir(contextDir), contained.relative);
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
 * Why the context directory is not really inside the project (a symlink on the way leads
 * out of it), or null when it is or does not exist yet.
 */
export function contextDirEscapes(projectRoot: string, contextDir: string): string | null {
  const physical = physicalPath(resolve(contextDir));
  const root = physicalPath(resolve(projectRoot));
  if (physical === null)
    return `Cannot use the context folder ${contextDir}: its symlinks form a loop`;
  if (root === null || isInside(root, physical)) return null;
  return `Cannot use the context folder ${contextDir}: it leads outside the project, to ${physical}`;
}
