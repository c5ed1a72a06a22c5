import { editWrite, str } from "../../hook/hook-input.ts";
import type { ChangeKind } from "../../model/batch.ts";
import type { PendingWrite } from "../../model/gate-types.ts";

/** `write_file {file_path, content}`, `edit {file_path, old_string, new_string, replace_all?}`. */
export const QWEN_EDIT_TOOLS = ["write_file", "edit"] as const;

/** A regex on the tool name. */
export const QWEN_EDIT_MATCHER = QWEN_EDIT_TOOLS.join("|");

/** What it changed is found by comparing the project's files. */
export const QWEN_SHELL_TOOL = "run_shell_command";

export const isQwenShellTool = (name: string): boolean => name === QWEN_SHELL_TOOL;

export function isQwenEditTool(name: string): boolean {
  return (QWEN_EDIT_TOOLS as readonly string[]).includes(name);
}

export function qwenEditedPath(input: Record<string, unknown>): string | null {
  return str(input.file_path) || null;
}

export function qwenPendingWrite(
  toolName: string,
  path: string,
  input: Record<string, unknown>,
  session: string,
): PendingWrite {
  const base = { tool: toolName, path, agent: "qwen", session };
  if (toolName === "write_file") {
    const content = str(input.content);
    return content === undefined ? base : { ...base, content };
  }
  const { old_string, new_string, replace_all } = input;
  return editWrite(base, {
    oldString: old_string,
    newString: new_string,
    replaceAll: replace_all === true,
  });
}

/** From the tool's answer ("Successfully created and wrote to new file…"). */
export function qwenChangeKind(response: Record<string, unknown> | undefined): ChangeKind {
  return /created and wrote to new file/i.test(str(response?.llmContent) ?? "")
    ? "created"
    : "modified";
}

/** An error means it changed nothing. */
export function qwenToolFailed(response: Record<string, unknown> | undefined): boolean {
  const error = response?.error;
  return error !== undefined && error !== null && error !== "";
}
