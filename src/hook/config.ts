import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { claimOnce } from "../agent-session/session-state.ts";
import { findConfig } from "../config/find.ts";
import { ConfigInvalid, ConfigRefused } from "../config/load.ts";
import { scriptProblem } from "../config/plain-script.ts";
import type { ResolvedConfig } from "../config/resolve.ts";
import { configRunsCode } from "../config/value-cache.ts";
import type { GateConfig } from "../model/gate-schema.ts";
import { sha1Hex } from "../platform/digest.ts";
import { isTracked } from "../project/tracked.ts";
import { CpilotError } from "../util/errors.ts";
import { realOr } from "../util/real-path.ts";
import { configBroken, unloadedConfig } from "./messages.ts";

/** The project's config as a hook sees it: none here, loaded, or broken (with the message). */
export type HookConfig =
  | { readonly kind: "none" }
  | { readonly kind: "ok"; readonly config: ResolvedConfig }
  | HookConfigError;

/**
 * A config that did not load. `gate`: its write gate section when that is still known (only
 * its callbacks are wrong): the gate obeys it. Otherwise the gate cannot know its rules.
 */
export interface HookConfigError {
  readonly kind: "error";
  readonly root: string;
  readonly message: string;
  readonly gate?: GateConfig;
}

/**
 * Thrown instead of loading a config whose loading would run the user's code in this
 * process: the call is answered by a child process that can be stopped (./isolated.ts),
 * so a config that hangs, loops or exits cannot leave the agent's hook without a verdict.
 * A ConfigRefused, so every surface that hands a call back (`cpilot run`'s hook listener) does so.
 */
export class ConfigNeedsIsolation extends ConfigRefused {
  constructor(readonly path: string) {
    let why = "its value was not kept from an earlier load";
    try {
      why = scriptProblem(readFileSync(path, "utf8")) ?? why;
    } catch {
      // unreadable: the child that loads it says so
    }
    super(`${path}: loading it runs code (${why})`);
  }
}

/**
 * How this process loads configs for hook calls. `direct`: load it here (a child that was
 * started for it, or a config that runs no code). `isolate`: a config that would run code
 * throws ConfigNeedsIsolation. `failed`: do not load at all, the config is broken with
 * `message` (its child could not load it in time, or ended).
 */
export type HookConfigMode =
  | { readonly kind: "direct" }
  | { readonly kind: "isolate" }
  | { readonly kind: "failed"; readonly message: string };

let mode: HookConfigMode = { kind: "direct" };
let loadedListener: ((config: ResolvedConfig) => void) | null = null;

export function setHookConfigMode(next: HookConfigMode): void {
  mode = next;
}

/** Called once a config loaded (the isolated child tells its parent it is past loading). */
export function onHookConfigLoaded(listener: ((config: ResolvedConfig) => void) | null): void {
  loadedListener = listener;
}

/**
 * The config of the project a written file lies in, when the call's folder has none: an
 * agent whose folder is outside the project (a parent folder holding several projects, a
 * folder added to its session) still writes under the project's gate and checks.
 */
function configOfWritten(
  cwd: string,
  written: readonly (string | null | undefined)[],
): string | null {
  for (const file of written) {
    if (typeof file !== "string" || file === "") continue;
    // as named, then where it really is (a symlink into a project is that project's write)
    const folder = dirname(resolve(cwd, file));
    for (const from of new Set([folder, realOfNearest(folder)])) {
      const found = findConfig(from);
      if (found !== null) return found;
    }
  }
  return null;
}

/**
 * The config that decides: the one nearest the written file when git tracks it in the
 * repository of the agent's folder's config (a package's own, the root's of the package the
 * agent started in, a sibling package's), else the agent's folder's; the written file's when
 * the agent's folder has none. A written file in another repository beside this one is still
 * this project's call (its gate says outside the root).
 */
function nearestConfig(fromCwd: string | null, fromWritten: string | null): string | null {
  if (fromCwd === null || fromWritten === null || fromCwd === fromWritten)
    return fromCwd ?? fromWritten;
  const root = dirname(fromCwd);
  // a config the agent could have written through its shell decides nothing
  return isTracked(root, relative(root, fromWritten)) ? fromWritten : fromCwd;
}

/** `path` with links resolved through its nearest existing folder (`lnk/new/x`: where lnk leads). */
function realOfNearest(path: string): string {
  const parent = dirname(path);
  if (existsSync(path) || parent === path) return realOr(path);
  return join(realOfNearest(parent), basename(path));
}

/**
 * Find and load the config for a hook call made in `cwd` (or, when none is found from
 * there, for the files it writes: `written`, as the agent gave them). Never throws but ConfigRefused:
 * a config that does not load comes back as its error text (key paths, hint), for the agent and stderr.
 */
export async function loadHookConfig(
  cwd: string,
  written: readonly (string | null | undefined)[] = [],
): Promise<HookConfig> {
  const path = nearestConfig(findConfig(cwd), configOfWritten(cwd, written));
  if (path === null) return { kind: "none" };
  if (mode.kind === "failed") return { kind: "error", root: dirname(path), message: mode.message };
  if (mode.kind === "isolate" && configRunsCode(path)) throw new ConfigNeedsIsolation(path);
  const { loadConfigFile } = await import("../config/load.ts");
  try {
    const config = await loadConfigFile(path);
    loadedListener?.(config);
    return { kind: "ok", config };
  } catch (err) {
    if (err instanceof ConfigRefused) throw err; // the hook listener hands the call back
    const message =
      err instanceof CpilotError
        ? `${err.message}${err.hint ? `\nhint: ${err.hint}` : ""}`
        : `Cannot load the cpilot config: ${err instanceof Error ? err.message : String(err)}`;
    const gate = err instanceof ConfigInvalid ? err.gate : undefined;
    return { kind: "error", root: dirname(path), message, ...(gate ? { gate } : {}) };
  }
}

/** Why a fallback config stands in for the project's own (see {@link emptyConfig}). */
const standIns = new WeakMap<ResolvedConfig, string>();

/**
 * A config with no callbacks standing in for a project config that did not load: the
 * gate's built-in protections still apply, none of the project's settings can relax them,
 * and its gate section applies when still known (`loaded.gate`). When it is not, the gate
 * cannot know what the config's rules deny, and refuses what the built-ins allow
 * ({@link unloadedConfigWhy}, ./edit-gate.ts).
 */
export async function emptyConfig(loaded: HookConfigError): Promise<ResolvedConfig> {
  const { resolveConfig } = await import("../config/resolve.ts");
  const config = resolveConfig(
    { callbacks: [], ...(loaded.gate ? { gate: loaded.gate } : {}) },
    loaded.root,
  );
  if (loaded.gate === undefined) standIns.set(config, loaded.message);
  return config;
}

/**
 * What a deny reason adds when the project's config did not load: only the built-in
 * protections decided. Null otherwise.
 */
export function unloadedConfigNote(config: ResolvedConfig): string | null {
  const why = unloadedConfigWhy(config);
  return why === null ? null : unloadedConfig(why);
}

/**
 * The first line of why `config` stands in for a project config that did not load, with
 * where the error is when it says (the person fixes it there: a file the config imports,
 * maybe), or null.
 */
export function unloadedConfigWhy(config: ResolvedConfig): string | null {
  const why = standIns.get(config);
  if (why === undefined) return null;
  const [first = why, second] = why.split("\n");
  const at = second?.match(/^\s+at (\S.*)$/)?.[1];
  return at === undefined ? first : `${first} at ${at}`;
}

/**
 * The text the model reads about a broken config, the first time in a session for each
 * distinct error (null afterwards: stderr only, the model was told).
 */
export function configErrorForModel(root: string, session: string, message: string): string | null {
  const hash = sha1Hex(message).slice(0, 12);
  let first = false;
  try {
    first = claimOnce(root, session, `config-error-${hash}`);
  } catch {
    first = false;
  }
  if (!first) return null;
  return configBroken(message);
}
