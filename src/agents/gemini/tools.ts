import { readFileSync } from "node:fs";
import { editWrite } from "../../hook/hook-input.ts";
import type { ChangeKind } from "../../model/batch.ts";
import type { GateDecision, PendingWrite } from "../../model/gate-types.ts";

export const GEMINI_EDIT_TOOLS = ["write_file", "replace"] as const;

/** A regex on the tool name. */
export const GEMINI_EDIT_MATCHER = GEMINI_EDIT_TOOLS.join("|");

/** What it changed is found by comparing the project's files. */
export const GEMINI_SHELL_TOOL = "run_shell_command";

export const isGeminiShellTool = (name: string): boolean => name === GEMINI_SHELL_TOOL;

export function isGeminiEditTool(name: string): boolean {
  return (GEMINI_EDIT_TOOLS as readonly string[]).includes(name);
}

const s = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

export function geminiEditedPath(input: Record<string, unknown>): string | null {
  const path = s(input.file_path);
  return path ? path : null;
}

export function geminiPendingWrite(
  toolName: string,
  path: string,
  input: Record<string, unknown>,
  session: string,
): PendingWrite {
  const base = { tool: toolName, path, agent: "gemini", session };
  if (toolName === "write_file") {
    const content = s(input.content);
    return content === undefined ? base : { ...base, content };
  }
  const { old_string, new_string, allow_multiple } = input;
  return editWrite(base, {
    oldString: old_string,
    newString: new_string,
    replaceAll: allow_multiple === true,
  });
}

/** Merged into the call's params; new content replaces a whole non-empty file, else null (deny). */
export function geminiUpdatedInput(
  toolName: string,
  decision: GateDecision,
): Record<string, unknown> | null {
  const path = { file_path: decision.path };
  if (decision.content === undefined) return path;
  if (toolName === "write_file") return { ...path, content: decision.content };
  let current: string;
  try {
    current = readFileSync(decision.path, "utf8");
  } catch {
    return null;
  }
  if (current === "") return null;
  return { ...path, old_string: current, new_string: decision.content, allow_multiple: false };
}

/** From the tool's answer ("Successfully created and wrote to new file…"). */
export function geminiChangeKind(response: Record<string, unknown> | undefined): ChangeKind {
  const text = s(response?.llmContent) ?? "";
  return /created and wrote to new file/i.test(text) ? "created" : "modified";
}

/** An error means it changed nothing. */
export function geminiToolFailed(response: Record<string, unknown> | undefined): boolean {
  const error = response?.error;
  return error !== undefined && error !== null && error !== "";
}
