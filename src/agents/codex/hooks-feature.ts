/** Codex's hooks switch, `[features] hooks` (on by default); the project's config.toml outranks the user's, so it is read first. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "smol-toml";

/** null when unset or not TOML. */
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

/** Project before user. */
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
