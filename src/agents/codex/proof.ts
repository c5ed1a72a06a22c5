/** How `cpilot doctor --prove` plays Codex CLI (0.169; see docs/agents.md). */
import { relative } from "node:path";
import { blockReason, claudeSchemaText, nested } from "../../proof/proof-answers.ts";
import type { DeliveryProof } from "../contract.ts";

const base = (cwd: string, event: string, file: string, content: string) => ({
  session_id: "cpilot-proof",
  turn_id: "turn-proof",
  transcript_path: null,
  cwd,
  hook_event_name: event,
  model: "proof",
  permission_mode: "bypassPermissions",
  tool_name: "apply_patch",
  tool_input: {
    command: `*** Begin Patch\n*** Add File: ${relative(cwd, file)}\n${content
      .replace(/\n$/, "")
      .split("\n")
      .map((line) => `+${line}`)
      .join("\n")}\n*** End Patch\n`,
  },
  tool_use_id: "call_proof",
});

export const codexProof: DeliveryProof = {
  afterWrite: (cwd, file, content) => ({
    ...base(cwd, "PostToolUse", file, content),
    tool_response: "Success. Updated the following files:\nA proof",
  }),
  beforeWrite: (cwd, file, content) => base(cwd, "PreToolUse", file, content),
  // a block's reason reaches the model too, but instead of the tool's output
  modelText: (answer, when) =>
    claudeSchemaText(
      answer,
      when,
      (json) => nested(json, "hookSpecificOutput", "additionalContext") ?? blockReason(json),
    ),
};
