import type { ResolvedConfig } from "../../config/resolve.ts";
import { readJsonObject, writeJsonObject, writeJsonObjectOrRemove } from "../../util/json-file.ts";
import { addGroupedHooks, type GroupedHooks, removeGroupedHooks } from "./grouped-hooks.ts";

export interface InstallContext {
  /** The folder of callbacks.config.ts, else the cwd. */
  readonly root: string;
  /** project: files in the repo, shared with the team; user: the person's home config. */
  readonly scope: "project" | "user";
  readonly home: string;
  /** For timeouts; null when there is none or it does not load. */
  readonly config: ResolvedConfig | null;
}

export interface InstallResult {
  /** The file written (or that would have been). */
  readonly path: string;
  readonly changed: boolean;
  readonly lines: readonly string[];
}

/** Idempotent; keeps everything not cpilot's. */
export type AgentInstaller = (
  action: "install" | "uninstall",
  ctx: InstallContext,
) => InstallResult;

/** Claude Code's hook schema (Gemini's settings.json, Codex's hooks.json). `inProject`: an emptied file is removed. */
export function installGroupedFile(
  path: string,
  action: "install" | "uninstall",
  ours: GroupedHooks,
  isOurs: (cmd: unknown) => boolean,
  inProject = false,
): { changed: boolean; removed: number } {
  const before = readJsonObject(path);
  if (action === "uninstall") {
    const { settings, removed } = removeGroupedHooks(before, isOurs);
    if (removed > 0 && inProject) writeJsonObjectOrRemove(path, settings);
    else if (removed > 0) writeJsonObject(path, settings);
    return { changed: removed > 0, removed };
  }
  const after = addGroupedHooks(before, ours, isOurs);
  if (JSON.stringify(after) === JSON.stringify(before)) return { changed: false, removed: 0 };
  writeJsonObject(path, after);
  return { changed: true, removed: 0 };
}

/** The shared body of the Gemini and Codex installers; `added`: lines shown after a fresh install. */
export function installGroupedHooks(
  path: string,
  action: "install" | "uninstall",
  ours: GroupedHooks,
  isOurs: (cmd: unknown) => boolean,
  added: readonly string[],
  inProject = false,
): InstallResult {
  const { changed, removed } = installGroupedFile(path, action, ours, isOurs, inProject);
  if (action === "uninstall") {
    const line = changed
      ? `removed ${removed} cpilot hook${removed === 1 ? "" : "s"}`
      : "no cpilot hooks: nothing changed";
    return { path, changed, lines: [line] };
  }
  return { path, changed, lines: changed ? added : ["hooks already there: nothing changed"] };
}
