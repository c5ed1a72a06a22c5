import { editWrite, str } from "../../hook/hook-input.ts";
import type { ChangeKind } from "../../model/batch.ts";
import type { PendingWrite } from "../../model/gate-types.ts";
import type { JsonObject } from "../../util/json-file.ts";

/** `create {path, file_text}`, `edit {path, old_str, new_str}` (1.0.102). */
export const COPILOT_EDIT_TOOLS = ["create", "edit"] as const;

export function isCopilotEditTool(name: string): boolean {
  return (COPILOT_EDIT_TOOLS as readonly string[]).includes(name);
}

/** `bash` (and `powershell` on Windows), and the tools that feed or read a shell it left running. */
const COPILOT_SHELL_TOOLS = [
  "bash",
  "write_bash",
  "read_bash",
  "stop_bash",
  "powershell",
  "write_powershell",
  "read_powershell",
  "stop_powershell",
];

export function isCopilotShellTool(name: string): boolean {
  return COPILOT_SHELL_TOOLS.includes(name);
}

export function copilotEditedPath(args: JsonObject): string | null {
  return str(args.path) || null;
}

export function copilotPendingWrite(
  toolName: string,
  path: string,
  args: JsonObject,
  session: string,
): PendingWrite {
  const base = { tool: toolName, path, agent: "copilot", session };
  if (toolName === "create") {
    const content = str(args.file_text);
    return content === undefined ? base : { ...base, content };
  }
  return editWrite(base, { oldString: args.old_str, newString: args.new_str });
}

/** `resultType: "success"`. */
export function copilotToolSucceeded(result: JsonObject | undefined): boolean {
  return str(result?.resultType) === "success";
}

export function copilotChangeKind(toolName: string): ChangeKind {
  return toolName === "create" ? "created" : "modified";
}
