import { pathInRoot } from "../../hook/root-path.ts";
import type { ChangeKind, FileChange } from "../../model/batch.ts";
import type { ClaudeToolCall } from "./payload.ts";

/** Claude Code's file-editing tools (MultiEdit is gone in 2.1.x; kept for older versions). */
export const EDIT_TOOLS = ["Write", "Edit", "MultiEdit", "NotebookEdit"] as const;

/** The `matcher` regex for the edit tools in Claude Code's hook config. */
export const EDIT_TOOLS_MATCHER = EDIT_TOOLS.join("|");

/**
 * Claude Code's tools that run shell commands, which may write any file: Bash, and Skill,
 * whose skill's `!` commands run as it loads (PreSkillShellCommand cannot know what one
 * writes, so, as for Bash, what they wrote is found after the call).
 */
export const SHELL_TOOLS = ["Bash", "Skill"] as const;

/** True for a tool that runs shell commands. */
export function isShellTool(name: string): boolean {
  return (SHELL_TOOLS as readonly string[]).includes(name);
}

/** The PostToolUse `matcher`: the edit tools, and the shell tools (what they wrote is found). */
export const AFTER_TOOLS_MATCHER = [...EDIT_TOOLS, ...SHELL_TOOLS].join("|");

/** True for a tool that edits one file. */
export function isEditTool(name: string): boolean {
  return (EDIT_TOOLS as readonly string[]).includes(name);
}

/** The absolute (or as given) path a tool call edits, or null when it edits none. */
export function editedPath(call: Pick<ClaudeToolCall, "toolName" | "toolInput">): string | null {
  if (!isEditTool(call.toolName)) return null;
  const key = call.toolName === "NotebookEdit" ? "notebook_path" : "file_path";
  const value = call.toolInput[key];
  return typeof value === "string" && value !== "" ? value : null;
}

/** Created or modified, from what the tool answered (an object in PostToolUse, a string in PostToolBatch). */
export function changeKind(call: ClaudeToolCall): ChangeKind {
  const r = call.toolResponse;
  if (typeof r === "string") return r.startsWith("File created") ? "created" : "modified";
  if (typeof r === "object" && r !== null && (r as { type?: unknown }).type === "create") {
    return "created";
  }
  return "modified";
}

/** A call whose tool reported an error (PostToolBatch lists those too): it changed nothing. */
function failedCall(call: ClaudeToolCall): boolean {
  const r = call.toolResponse;
  return typeof r === "string" && r.trimStart().startsWith("<tool_use_error>");
}

/** The files a set of tool calls edited, as batch changes (deduplicated, inside the root only). */
export function batchFiles(
  root: string,
  cwd: string,
  calls: readonly ClaudeToolCall[],
): FileChange[] {
  const seen = new Map<string, FileChange>();
  for (const call of calls) {
    const path = editedPath(call);
    if (path === null || failedCall(call)) continue;
    const rel = pathInRoot(root, cwd, path);
    if (rel === null) continue;
    const kind = changeKind(call);
    const prev = seen.get(rel);
    seen.set(rel, { path: rel, kind: prev?.kind === "created" ? "created" : kind });
  }
  return [...seen.values()];
}
