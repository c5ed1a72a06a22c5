/**
 * The files that decide what cpilot's gate protects: its config (every name it is found
 * under), the callbacks tools manage beside it, and each agent's hook settings, where the
 * gate itself is wired in. An agent that could write one of them could turn the gate off
 * and then write anything, so by default only a person changes them.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, extname, join, relative, resolve, sep } from "node:path";
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
  ".github/hooks/cpilot.json",
  ".qwen/settings.json",
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

const SCRIPT = new Set([".ts", ".mts", ".js", ".mjs"]);
/** Every module specifier of a static import, export-from or dynamic import. */
const SPECIFIERS = /\b(?:from|import)\s*\(?\s*(["'`])([^"'`]*)\1/g;
/** How a specifier without an extension may resolve. */
const SUFFIXES = ["", ".ts", ".mts", ".js", ".mjs", ".json", "/index.ts", "/index.js"];

/**
 * The files a script config at the root imports by a relative path (one level deep),
 * relative to the root, posix separators: changing one changes the config as surely as
 * editing it. Read on each call (the config may have changed); [] for a data config.
 */
export function configImports(root: string): string[] {
  // the config of this root: the first name found, as findConfig picks it
  const config = CONFIG_NAMES.map((n) => join(root, n)).find((p) => existsSync(p));
  if (config === undefined || !SCRIPT.has(extname(config))) return [];
  let source: string;
  try {
    source = readFileSync(config, "utf8");
  } catch {
    return [];
  }
  const out = new Set<string>();
  for (const match of source.matchAll(SPECIFIERS)) {
    const spec = match[2] ?? "";
    if (!spec.startsWith("./") && !spec.startsWith("../")) continue;
    for (const suffix of SUFFIXES) {
      const rel = relative(root, resolve(dirname(config), spec + suffix));
      if (rel !== "" && !rel.startsWith("..")) out.add(rel.split(sep).join("/"));
    }
  }
  return [...out];
}
