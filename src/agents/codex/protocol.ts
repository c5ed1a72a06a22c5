/** Codex CLI's hook protocol facts, for shared code that answers without the handler. */

import { preToolUseDeny } from "../_shared/deny-forms.ts";
import type { AgentProtocol } from "../contract.ts";

export const codexProtocol: AgentProtocol = {
  preWriteEvent: "PreToolUse",
  denyForm: preToolUseDeny,
  emptyJson: null,
  stateDirs: () => [],
};
