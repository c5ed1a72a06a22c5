/** OpenCode's hook protocol facts, for shared code that answers without the handler. */

import type { AgentProtocol } from "../../model/hook.ts";
import { decisionDeny } from "../kit/deny-forms.ts";

export const opencodeProtocol: AgentProtocol = {
  preWriteEvent: "tool.execute.before",
  denyForm: decisionDeny,
  emptyJson: {},
  stateDirs: () => [],
};
