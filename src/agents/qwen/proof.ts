/** How `cpilot doctor --prove` plays Qwen Code (0.24.4; see docs/agents.md). */

import { claudeSchemaText, nested, proofSession } from "../../proof/proof-answers.ts";
import type { DeliveryProof } from "../contract.ts";

const base = (cwd: string, event: string, file: string, content: string) => ({
  ...proofSession(cwd, event),
  timestamp: new Date().toISOString(),
  permission_mode: "yolo",
  tool_name: "write_file",
  tool_input: { file_path: file, content },
  tool_use_id: "call_proof",
});

export const qwenProof: DeliveryProof = {
  afterWrite: (cwd, file, content) => ({
    ...base(cwd, "PostToolUse", file, content),
    tool_response: { llmContent: `Successfully created and wrote to new file: ${file}.` },
  }),
  beforeWrite: (cwd, file, content) => base(cwd, "PreToolUse", file, content),
  // Qwen ignores decision/reason on PostToolUse (seen), and reads no exit 2
  modelText: (answer, when) =>
    claudeSchemaText(
      answer,
      when,
      (json) => nested(json, "hookSpecificOutput", "additionalContext"),
      false,
    ),
};
