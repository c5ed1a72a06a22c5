/** How `cpilot doctor --prove` plays Gemini CLI (0.61; see docs/agents.md). */

import { answerJson, field, nested, proofSession } from "../../proof/proof-answers.ts";
import type { DeliveryProof } from "../contract.ts";

const base = (cwd: string, event: string, file: string, content: string) => ({
  ...proofSession(cwd, event),
  timestamp: new Date().toISOString(),
  tool_name: "write_file",
  tool_input: { file_path: file, content },
});

export const geminiProof: DeliveryProof = {
  afterWrite: (cwd, file, content) => ({
    ...base(cwd, "AfterTool", file, content),
    tool_response: {
      llmContent: `Successfully created and wrote to new file: ${file}.`,
      returnDisplay: "",
    },
  }),
  beforeWrite: (cwd, file, content) => base(cwd, "BeforeTool", file, content),
  modelText(answer, when) {
    if (answer.code === 2) return answer.stderr.trim() || null;
    const json = answerJson(answer);
    if (when === "before") return field(json, "decision") === "deny" ? field(json, "reason") : null;
    return nested(json, "hookSpecificOutput", "additionalContext");
  },
};
