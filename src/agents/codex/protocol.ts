/** Codex CLI's hook protocol facts, for shared code that answers without the handler. */

import type { AgentProtocol } from "../contract.ts";
import { preToolUseDeny } from "../kit/deny-forms.ts";

export const codexProtocol: AgentProtocol = {
  preWriteEvent: "PreToolUse",
  denyForm: preToolUseDeny,
  emptyJson: null,
  stateDirs: () => [],
};
