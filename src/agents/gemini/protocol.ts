/** Gemini CLI's hook protocol facts, for shared code that answers without the handler. */

import { join } from "node:path";
import type { AgentProtocol } from "../../model/hook.ts";
import { decisionDeny } from "../kit/deny-forms.ts";

export const geminiProtocol: AgentProtocol = {
  preWriteEvent: "BeforeTool",
  denyForm: decisionDeny,
  emptyJson: null,
  // plan mode keeps its plans under the per-project temp folder
  projectDirVar: "GEMINI_PROJECT_DIR",
  stateDirs: (home) => [join(home, ".gemini", "tmp")],
};
