/** Codex CLI's hook protocol facts, for shared code that answers without the handler. */

import { join } from "node:path";
import type { AgentProtocol } from "../../model/hook.ts";
import { preToolUseDeny } from "../kit/deny-forms.ts";

/** $CODEX_HOME, else ~/.codex. */
export function codexHome(home: string, env: NodeJS.ProcessEnv): string {
  return env.CODEX_HOME || join(home, ".codex");
}

export const codexProtocol: AgentProtocol = {
  preWriteEvent: "PreToolUse",
  denyForm: preToolUseDeny,
  emptyJson: null,
  stateDirs: () => [],
};
