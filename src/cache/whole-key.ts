import { readFileSync, statSync } from "node:fs";
import { extname } from "node:path";
import { managedPath } from "../config/managed-file.ts";
import { configValueKey } from "../config/value-cache.ts";
import { sha1Hex } from "../platform/digest.ts";
import { isTerminal } from "../platform/stdio.ts";
import { readStateFile } from "../util/state-file.ts";
import { STATE, statePath } from "../util/state-layout.ts";
import { BUILD_INFO, VERSION_LINE } from "../version.ts";
import { toolEnv } from "./tool-env.ts";

/** The variables a check's text or results may follow: cpilot's, git's, where state lives, how a terminal shows colour. */
const ENV_PREFIXES = ["CPILOT_", "CP_", "GIT_", "XDG_", "GITHUB_", "TURBO_"];
const ENV_NAMES = new Set([
  "PATH",
  "HOME",
  "TMPDIR",
  "NO_COLOR",
  "FORCE_COLOR",
  "TERM",
  "COLUMNS",
  "CI",
]);

/** Which whole check of this project a record is for: one per command as typed, where it was typed. */
export function wholeSlot(root: string, cwd: string, args: readonly string[]): string {
  return sha1Hex(JSON.stringify(["cpilot whole check", root, cwd, args]));
}

export interface WholeSettingsInput {
  readonly root: string;
  readonly cwd: string;
  readonly args: readonly string[];
  readonly configPath: string;
}

/**
 * Everything but the project's content that decides a check's runs and its text: this very
 * cpilot program, the command, the environment, whether stdout and stderr are terminals, the
 * config (its bytes and its own modules'), the managed callbacks and what `cpilot
 * enable|disable` turned on or off. Null when the config is not plain data: its value may
 * follow anything, and when cpilot runs from source.
 */
export function wholeSettings(input: WholeSettingsInput): string | null {
  // run from source, the program is the runtime: an edit to cpilot's code would not show
  if (BUILD_INFO === "source") return null;
  const config = configKey(input.configPath);
  if (config === null) return null;
  const program = stampText(process.execPath);
  if (program === null) return null;
  const env = Object.entries(process.env)
    .filter(
      ([name, value]) =>
        value !== undefined &&
        (ENV_NAMES.has(name) || ENV_PREFIXES.some((prefix) => name.startsWith(prefix))),
    )
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return sha1Hex(
    JSON.stringify([
      VERSION_LINE,
      process.execPath,
      program,
      input.args,
      input.cwd,
      input.root,
      input.configPath,
      config,
      bytesId(managedPath(input.root)),
      textId(readStateFile(statePath(input.root, STATE.toggles))),
      env,
      toolEnv(),
      isTerminal(1),
      isTerminal(2),
    ]),
  );
}

const DATA = new Set([".json", ".yaml", ".yml"]);

function configKey(path: string): string | null {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(path);
  } catch {
    return null;
  }
  return DATA.has(extname(path)) ? `data:${sha1Hex(bytes)}` : configValueKey(path, bytes);
}

function bytesId(path: string): string {
  try {
    return sha1Hex(readFileSync(path));
  } catch {
    return "none";
  }
}

function textId(text: string | null): string {
  return text === null ? "none" : sha1Hex(text);
}

function stampText(path: string): string | null {
  try {
    const s = statSync(path);
    return `${s.dev}:${s.ino}:${s.size}:${s.mtimeMs}:${s.ctimeMs}`;
  } catch {
    return null;
  }
}
