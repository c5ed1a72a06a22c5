/** Qwen Code's hook protocol facts, for shared code that answers without the handler. */

import type { AgentProtocol } from "../../model/hook.ts";
import { preToolUseDeny } from "../kit/deny-forms.ts";

/** Qwen Code 0.24.4 hands a PreToolUse deny's reason to the model as the tool's result (seen). */
export const qwenProtocol: AgentProtocol = {
  preWriteEvent: "PreToolUse",
  denyForm: preToolUseDeny,
  emptyJson: null,
  stateDirs: () => [],
};
