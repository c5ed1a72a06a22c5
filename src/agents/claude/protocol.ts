/** Claude Code's hook protocol facts, for shared code that answers without the handler. */

import { join } from "node:path";
import type { AgentProtocol } from "../../model/hook.ts";
import { preToolUseDeny } from "../kit/deny-forms.ts";

/** Claude Code's own folder: $CLAUDE_CONFIG_DIR, else ~/.claude. */
export function claudeConfigDir(home: string, env: NodeJS.ProcessEnv): string {
  return env.CLAUDE_CONFIG_DIR || join(home, ".claude");
}

/**
 * The hook command's flag for its background Stop hook (`asyncRewake`), which waits for
 * background results and wakes the model with a failure (./rewake.ts).
 */
export const REWAKE_FLAG = "--rewake";

export const claudeProtocol: AgentProtocol = {
  preWriteEvent: "PreToolUse",
  denyForm: preToolUseDeny,
  emptyJson: null,
  projectDirVar: "CLAUDE_PROJECT_DIR",
  // plan mode writes ~/.claude/plans/<name>.md with Write; todo lists live in ~/.claude/todos/
  stateDirs: (home, env) => [
    join(claudeConfigDir(home, env), "plans"),
    join(claudeConfigDir(home, env), "todos"),
  ],
};
