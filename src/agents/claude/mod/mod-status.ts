/**
 * doctor's look at the mod, which fails open silently (Claude Code runs the call as written when it
 * cannot start cpilot), so only a look at what is installed tells whether it formats anything.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { selfArgv } from "../../../platform/self-command.ts";
import type { AddOnCheck } from "../../contract.ts";
import { detectClaudeVersion, supportsMods } from "../detect-version.ts";
import { claudeConfigDir } from "../protocol.ts";
import { readSettings } from "../settings-file.ts";
import { holdsOurPlugin, installedModDir, PLUGIN_DIRS_VAR, pluginDirs } from "./install-mod.ts";
import { modFiles } from "./plugin.ts";

const NAME = "format-on-save mod";
const AGAIN = "run `cpilot install claude --mod` again";

/** Nothing when it is not installed. */
export function claudeModStatus(home: string, env: NodeJS.ProcessEnv): AddOnCheck[] {
  const dir = installedModDir(home, env);
  const settings = join(claudeConfigDir(home, env), "settings.json");
  let named = false;
  try {
    named = pluginDirs(readSettings(settings)).dirs.includes(dir);
  } catch {
    // unreadable settings name nothing
  }
  const present = holdsOurPlugin(dir);
  if (!named && !present) return [];
  const problem = (why: string): AddOnCheck[] => [
    { name: NAME, state: `in ${dir}`, problem: `the ${NAME} does not run: ${why}` },
  ];
  if (!present)
    return problem(
      `${PLUGIN_DIRS_VAR} in ${settings} names ${dir}, which holds no cpilot mod; ${AGAIN}`,
    );
  if (!named)
    return problem(
      `${PLUGIN_DIRS_VAR} in ${settings} does not name ${dir}, so Claude Code does not load it (an update or another tool rewrote the settings); ${AGAIN}`,
    );
  const version = detectClaudeVersion(env.CPILOT_CLAUDE_BIN || "claude");
  if (version !== null && !supportsMods(version))
    return problem(
      `Claude Code ${version.join(".")} loads no mods (2.1.287 and later do); update Claude Code`,
    );
  if (!sameFiles(dir))
    return problem(
      `its files are from another cpilot (updated or moved since), so it may start a cpilot that is gone; ${AGAIN}`,
    );
  const by = version === null ? "Claude Code" : `Claude Code ${version.join(".")}`;
  return [
    { name: NAME, state: `in ${dir}, loaded by ${by} through ${PLUGIN_DIRS_VAR}`, problem: null },
  ];
}

function sameFiles(dir: string): boolean {
  for (const [rel, text] of Object.entries(modFiles(selfArgv()))) {
    try {
      if (readFileSync(join(dir, rel), "utf8") !== text) return false;
    } catch {
      return false;
    }
  }
  return true;
}
