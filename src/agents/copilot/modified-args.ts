import type { GateDecision } from "../../model/gate-types.ts";
import type { JsonObject } from "../../util/json-file.ts";
import { readRegularFile } from "../../util/read-regular.ts";

/** Edits are replayed in memory only on files up to this size. */
const MAX_EDIT_BYTES = 32 * 1024 * 1024;

/** For `modifiedArgs`: create takes path and content; edit replaces a whole non-empty file; else null. */
export function copilotModifiedArgs(
  toolName: string,
  args: JsonObject,
  decision: GateDecision,
): JsonObject | null {
  if (toolName === "create") {
    return {
      ...args,
      path: decision.path,
      ...(decision.content === undefined ? {} : { file_text: decision.content }),
    };
  }
  if (decision.content === undefined) return { ...args, path: decision.path };
  const current = readRegularFile(decision.path, MAX_EDIT_BYTES)?.toString("utf8") ?? "";
  if (current === "") return null;
  return { path: decision.path, old_str: current, new_str: decision.content };
}

const SHOWN_CHARS = 4000;

export function writtenNote(decision: GateDecision): string {
  const content = decision.content;
  if (content === undefined) return `It was written to ${decision.path}.`;
  const shown = content.length > SHOWN_CHARS ? `${content.slice(0, SHOWN_CHARS)}\n…` : content;
  return `${decision.path} now holds:\n\`\`\`\n${shown}\n\`\`\``;
}
