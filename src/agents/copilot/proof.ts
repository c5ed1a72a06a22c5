/** How `cpilot doctor --prove` plays Copilot CLI (1.0.102; see docs/agents.md). */

import { answerJson, blockReason, field } from "../../proof/proof-answers.ts";
import type { DeliveryProof } from "../contract.ts";

const base = (cwd: string, file: string, content: string) => ({
  sessionId: "cpilot-proof",
  timestamp: Date.now(),
  cwd,
  toolName: "create",
  toolArgs: { path: file, file_text: content },
});

export const copilotProof: DeliveryProof = {
  afterWrite: (cwd, file, content) => ({
    ...base(cwd, file, content),
    toolResult: { resultType: "success", textResultForLlm: `Created file ${file}` },
  }),
  beforeWrite: (cwd, file, content) => base(cwd, file, content),
  modelText(answer, when) {
    const json = answerJson(answer);
    if (when === "before")
      return field(json, "permissionDecision") === "deny"
        ? field(json, "permissionDecisionReason")
        : null;
    // only a top-level additionalContext (a block's reason replaces the tool's output)
    return field(json, "additionalContext") ?? blockReason(json);
  },
};
