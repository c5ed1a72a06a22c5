/**
 * Codex's hooks switch: `[features] hooks` in its config.toml (on by default). Read from the
 * project's `.codex/config.toml` first, since it outranks the user's, so doctor, `cpilot run`
 * and `doctor --prove` can name the file that turns cpilot's hooks off.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "smol-toml";

/** `features.hooks` in a config.toml's text; null when unset or the text is not TOML. */
export function hooksFeature(toml: string): boolean | null {
  try {
    const features = parse(toml).features;
    if (typeof features !== "object" || features === null || Array.isArray(features)) return null;
    const hooks = (features as Record<string, unknown>).hooks;
    return typeof hooks === "boolean" ? hooks : null;
  } catch {
    return null;
  }
}

/** The config.toml that turns Codex's hooks off (project before user), or null. */
export function hooksTurnedOffIn(root: string, codexHome: string): string | null {
  for (const path of [join(root, ".codex", "config.toml"), join(codexHome, "config.toml")]) {
    let text: string;
    try {
      text = readFileSync(path, "utf8");
    } catch {
      continue;
    }
    const value = hooksFeature(text);
    if (value !== null) return value ? null : path;
  }
  return null;
}
