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

export type HookConfig =
  | { readonly kind: "none" }
  | { readonly kind: "ok"; readonly config: ResolvedConfig }
  | HookConfigError;

/** `gate`: its gate section when still known (only its callbacks are wrong): the gate obeys it. */
export interface HookConfigError {
  readonly kind: "error";
  readonly root: string;
  readonly message: string;
  readonly gate?: GateConfig;
}

/** Thrown instead of running the user's code here: a child that can be stopped loads it. */
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
 * `direct`: load here. `isolate`: a config that would run code throws ConfigNeedsIsolation.
 * `failed`: the config is broken with `message` (its child could not load it in time).
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

/** The isolated child tells its parent it is past loading. */
export function onHookConfigLoaded(listener: ((config: ResolvedConfig) => void) | null): void {
  loadedListener = listener;
}

/**
 * An agent whose folder is outside the project still writes under the project's gate and
 * checks. One call writing under several configs (a patch across packages) is judged by the
 * config nearest them all, which leaves each package to its own.
 */
function configOfWritten(
  cwd: string,
  written: readonly (string | null | undefined)[],
): string | null {
  const found = new Map<string, string>();
  for (const file of written) {
    if (typeof file !== "string" || file === "") continue;
    // as named, then where it really is (a symlink into a project is that project's write)
    const folder = dirname(resolve(cwd, file));
    for (const from of new Set([folder, realOfNearest(folder)])) {
      const config = findConfig(from);
      if (config === null) continue;
      found.set(config, from);
      break;
    }
  }
  const [first] = found.keys();
  if (found.size <= 1) return first ?? null;
  // whether an agent could have written it is for nearestConfig to judge, as for one file
  return findConfig(commonFolder([...found.values()])) ?? first ?? null;
}

function commonFolder(folders: readonly string[]): string {
  let common = folders[0] ?? "/";
  for (const f of folders)
    while (f !== common && !f.startsWith(`${common}/`) && dirname(common) !== common)
      common = dirname(common);
  return common;
}

/** Nearest the written file when git tracks that config, else the agent's folder's. */
function nearestConfig(fromCwd: string | null, fromWritten: string | null): string | null {
  if (fromCwd === null || fromWritten === null || fromCwd === fromWritten)
    return fromCwd ?? fromWritten;
  const root = dirname(fromCwd);
  // a config the agent could have written through its shell decides nothing
  return isTracked(root, relative(root, fromWritten)) ? fromWritten : fromCwd;
}

/** Links resolved through its nearest existing folder (`lnk/new/x`: where lnk leads). */
function realOfNearest(path: string): string {
  const parent = dirname(path);
  if (existsSync(path) || parent === path) return realOr(path);
  return join(realOfNearest(parent), basename(path));
}

/** `written`: the call's files, used when no config is found from `cwd`. Throws only ConfigRefused. */
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

const standIns = new WeakMap<ResolvedConfig, string>();

/**
 * Stands in for a config that did not load: the built-in protections still apply and
 * nothing can relax them; its gate section applies when still known. When it is not, the
 * gate refuses what the built-ins allow, since the config's rules may deny it.
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

/** Null when the config loaded. */
export function unloadedConfigNote(config: ResolvedConfig): string | null {
  const why = unloadedConfigWhy(config);
  return why === null ? null : unloadedConfig(why);
}

/** The first line of why the config did not load, with where the error is; null when it loaded. */
export function unloadedConfigWhy(config: ResolvedConfig): string | null {
  const why = standIns.get(config);
  if (why === undefined) return null;
  const [first = why, second] = why.split("\n");
  const at = second?.match(/^\s+at (\S.*)$/)?.[1];
  return at === undefined ? first : `${first} at ${at}`;
}

/** Once per session per distinct error; null afterwards (stderr only). */
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
