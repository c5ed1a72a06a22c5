/**
 * The files that decide what cpilot's gate protects: its config (every name it is found
 * under), the callbacks tools manage beside it, and each agent's hook settings, where the
 * gate itself is wired in. An agent that could write one of them could turn the gate off
 * and then write anything, so by default only a person changes them.
 */
import { CONFIG_NAMES } from "../config/find.ts";
import { MANAGED_NAME } from "../config/managed-file.ts";
import { skeleton } from "./protected.ts";

const CONFIG_FILES = new Set<string>([...CONFIG_NAMES, MANAGED_NAME]);

/** Agent settings that hold cpilot's hooks: `<folder>/<file>`, in any folder of the project. */
const HOOK_SETTINGS = new Set([
  ".claude/settings.json",
  ".claude/settings.local.json",
  ".gemini/settings.json",
  ".codex/hooks.json",
  ".codex/config.toml",
  ".cursor/hooks.json",
  ".opencode/plugins/cpilot.ts",
]);

/** What the path is, when it is one of those files (any folder, any case), else null. */
export function ownConfigKind(relPath: string): string | null {
  const parts = relPath
    .split(/[/\\]/)
    .filter((s) => s !== "" && s !== ".")
    .map(skeleton);
  const name = parts.at(-1);
  if (name === undefined) return null;
  if (CONFIG_FILES.has(name)) return `cpilot's config (${name})`;
  for (const tail of [parts.slice(-2).join("/"), parts.slice(-3).join("/")]) {
    if (HOOK_SETTINGS.has(tail))
      return `an agent's hook settings (${tail}), which wire in cpilot's gate`;
  }
  return null;
}
