/** OpenCode's hook protocol facts, for shared code that answers without the handler. */

import { decisionDeny } from "../_shared/deny-forms.ts";
import type { AgentProtocol } from "../contract.ts";

export const opencodeProtocol: AgentProtocol = {
  preWriteEvent: "tool.execute.before",
  denyForm: decisionDeny,
  emptyJson: {},
  stateDirs: () => [],
};
