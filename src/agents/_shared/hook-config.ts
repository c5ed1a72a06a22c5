import { dirname } from "node:path";
import { findConfig } from "../../config/find.ts";
import type { ResolvedConfig } from "../../config/resolve.ts";
import { sha1Hex } from "../../platform/digest.ts";
import { CpilotError } from "../../util/errors.ts";
import { claimOnce } from "./session-state.ts";

/** The project's config as a hook sees it: none here, loaded, or broken (with the message). */
export type HookConfig =
  | { readonly kind: "none" }
  | { readonly kind: "ok"; readonly config: ResolvedConfig }
  | { readonly kind: "error"; readonly root: string; readonly message: string };

/**
 * Find and load the config for a hook call made in `cwd`. Never throws: a config that
 * does not load comes back as its error text (key paths, hint), for the agent and stderr.
 */
export async function loadHookConfig(cwd: string): Promise<HookConfig> {
  const path = findConfig(cwd);
  if (path === null) return { kind: "none" };
  const { loadConfigFile, ConfigRefused } = await import("../../config/load.ts");
  try {
    return { kind: "ok", config: await loadConfigFile(path) };
  } catch (err) {
    if (err instanceof ConfigRefused) throw err; // the hook server hands the call back
    const message =
      err instanceof CpilotError
        ? `${err.message}${err.hint ? `\nhint: ${err.hint}` : ""}`
        : `Cannot load the cpilot config: ${err instanceof Error ? err.message : String(err)}`;
    return { kind: "error", root: dirname(path), message };
  }
}

/** A config with no callbacks for `root`: the gate's built-in protections still apply. */
export async function emptyConfig(root: string): Promise<ResolvedConfig> {
  const { resolveConfig } = await import("../../config/resolve.ts");
  return resolveConfig({ callbacks: [] }, root);
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
  return `cpilot: the project's checks are NOT running: its config is broken.\n${message}\nFix the config file if that is part of your task; otherwise tell the user.`;
}
