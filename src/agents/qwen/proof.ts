/** How `cpilot doctor --prove` plays Qwen Code (0.24.4; see docs/agents.md). */

import type { DeliveryProof } from "../contract.ts";
import { answerJson, nested, preToolUseDenyReason } from "../kit/proof-answers.ts";

const base = (cwd: string, event: string, file: string, content: string) => ({
  session_id: "cpilot-proof",
  transcript_path: "",
  cwd,
  hook_event_name: event,
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
  modelText(answer, when) {
    const json = answerJson(answer);
    if (when === "before") return preToolUseDenyReason(json);
    // Qwen ignores decision/reason on PostToolUse (seen)
    return nested(json, "hookSpecificOutput", "additionalContext");
  },
};
