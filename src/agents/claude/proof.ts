/** How `cpilot doctor --prove` plays Claude Code (2.1.x; see docs/agents.md). */

import { blockReason, claudeSchemaText, nested, proofSession } from "../../proof/proof-answers.ts";
import type { DeliveryProof } from "../contract.ts";

const base = (cwd: string, event: string, file: string, content: string) => ({
  ...proofSession(cwd, event),
  permission_mode: "default",
  tool_name: "Write",
  tool_input: { file_path: file, content },
  tool_use_id: "toolu_proof",
});

export const claudeProof: DeliveryProof = {
  afterWrite: (cwd, file, content) => ({
    ...base(cwd, "PostToolUse", file, content),
    tool_response: { type: "create", filePath: file },
  }),
  beforeWrite: (cwd, file, content) => base(cwd, "PreToolUse", file, content),
  modelText: (answer, when) =>
    claudeSchemaText(
      answer,
      when,
      (json) => blockReason(json) ?? nested(json, "hookSpecificOutput", "additionalContext"),
    ),
};
