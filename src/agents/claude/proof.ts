/** How `cpilot doctor --prove` plays Claude Code (2.1.x; see docs/agents.md). */

import type { DeliveryProof } from "../contract.ts";
import { answerJson, field, nested, preToolUseDenyReason } from "../kit/proof-answers.ts";

const base = (cwd: string, event: string, file: string, content: string) => ({
  session_id: "cpilot-proof",
  transcript_path: "",
  cwd,
  permission_mode: "default",
  hook_event_name: event,
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
  modelText(answer, when) {
    // exit 2: stderr goes to the model; any other non-zero code reaches nothing
    if (answer.code === 2) return answer.stderr.trim() || null;
    const json = answerJson(answer);
    if (when === "before") return preToolUseDenyReason(json);
    const block = field(json, "decision") === "block" ? field(json, "reason") : null;
    return block ?? nested(json, "hookSpecificOutput", "additionalContext");
  },
};
