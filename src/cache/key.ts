import { join, relative } from "node:path";
import { sha1Hex } from "../platform/digest.ts";
import { VERSION } from "../version.ts";
import { contentIds, NO_CONTENT, type ProjectSnapshot } from "./content.ts";
import { findProgram, programWord } from "./find-program.ts";
import { noteProgram } from "./outside-reads.ts";
import { packageFileIds } from "./package-files.ts";
import { programContentId } from "./program-id.ts";
import { stampOf } from "./stamps.ts";
import { TOOL_CONFIGS } from "./tool-configs.ts";
import { toolEnv } from "./tool-env.ts";

export interface CheckDefinition {
  readonly run: string | readonly string[] | ((...args: never[]) => unknown);
  /** Keyed relative to the root, so the key is the same on every machine. */
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly format?: string | undefined;
}

/**
 * The root's tool configs with their content ids, for {@link definitionKey}: read once for all
 * of a batch's callbacks; from a pinned project's index, never from disk.
 */
export function rootToolConfigs(
  root: string,
  project?: ProjectSnapshot,
): ReadonlyMap<string, string> {
  if (project?.committedConfigs() === undefined) return contentIds(root, TOOL_CONFIGS);
  return new Map(TOOL_CONFIGS.map((name) => [name, project.committedId(name) ?? NO_CONTENT]));
}

/**
 * Command, folder, environment (its own, and the checkers' variables of the process: see
 * tool-env.ts), output format, cpilot's version and the tool configs down to its folder.
 * `configs`: {@link rootToolConfigs} as read for this batch.
 */
export function definitionKey(
  root: string,
  def: CheckDefinition,
  configs: ReadonlyMap<string, string> = rootToolConfigs(root),
  project?: ProjectSnapshot,
): string {
  const run = typeof def.run === "function" ? `fn:${String(def.run)}` : def.run;
  const parts = JSON.stringify([
    VERSION,
    run,
    relative(root, def.cwd),
    Object.entries(def.env).sort(),
    toolEnv(),
    def.format ?? "auto",
    [...configs].filter(([, id]) => id !== "none"),
    // a file in the working folder stands for it: the configs down to it
    packageFileIds(root, [join(relative(root, def.cwd), "-")], project?.committedConfigs() ?? null),
    toolStamp(root, def),
  ]);
  return sha1Hex(parts);
}

/**
 * The checker's version, where cheap to know: the content of the program the command starts
 * (an upgrade replaces it). "" when it cannot be found (a builtin, a function, a variable).
 */
function toolStamp(root: string, def: CheckDefinition): string {
  const word = programWord(def.run);
  if (word === undefined) return "";
  const found = findProgram(word, def.cwd);
  noteProgram({
    word,
    cwd: def.cwd,
    found: found === null ? "" : (stampOf(found.path)?.text ?? ""),
  });
  if (found === null) return "";
  return (
    programContentId(root, found) ??
    // a program that can be run but not read: its install's own stamp
    `${found.size}:${found.mtimeMs}`
  );
}
