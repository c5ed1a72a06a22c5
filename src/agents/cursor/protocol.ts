/** Cursor's hook protocol facts, for shared code that answers without the handler. */
import { join } from "node:path";
import type { AgentProtocol } from "../../model/hook.ts";

export const cursorProtocol: AgentProtocol = {
  preWriteEvent: "preToolUse",
  denyForm: (reason) => ({ permission: "deny", agent_message: reason }),
  emptyJson: {},
  stateDirs: (home) => [join(home, ".cursor", "plans")],
};
