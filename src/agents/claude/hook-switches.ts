/**
 * Will Claude Code run a project's hooks here? `disableAllHooks` turns every hook off,
 * `allowManagedHooksOnly` keeps only the administrator's. Settings merge user, project, local, then
 * managed (which nothing overrides); the last file that sets a key decides.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

function managedSettings(platform = process.platform): string {
  if (platform === "darwin") return "/Library/Application Support/ClaudeCode/managed-settings.json";
  if (platform === "win32") return "C:\\Program Files\\ClaudeCode\\managed-settings.json";
  return "/etc/claude-code/managed-settings.json";
}

function readJson(path: string): Record<string, unknown> | null {
  try {
    const v = JSON.parse(readFileSync(path, "utf8")) as unknown;
    return v !== null && typeof v === "object" && !Array.isArray(v)
      ? (v as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/** Each names the file that decides. */
export function claudeHookSwitches(
  project: string,
  home: string,
  env: NodeJS.ProcessEnv,
): string[] {
  const configDir = env.CLAUDE_CONFIG_DIR || join(home, ".claude");
  const files = [
    join(configDir, "settings.json"),
    join(project, ".claude", "settings.json"),
    join(project, ".claude", "settings.local.json"),
    managedSettings(),
  ];
  let disabledBy: string | null = null;
  let managedOnly = false;
  for (const path of files) {
    const settings = readJson(path);
    if (settings === null) continue;
    if (typeof settings.disableAllHooks === "boolean")
      disabledBy = settings.disableAllHooks ? path : null;
    if (path === managedSettings() && settings.allowManagedHooksOnly === true) managedOnly = true;
  }
  const found: string[] = [];
  if (disabledBy !== null)
    found.push(`Claude Code runs no hooks: "disableAllHooks": true in ${disabledBy}`);
  if (managedOnly)
    found.push(
      `Claude Code runs only managed hooks: "allowManagedHooksOnly": true in ${managedSettings()}`,
    );
  return found;
}
