import type { PendingWrite } from "../../model/gate-types.ts";

/**
 * Cursor's tool names vary by version (`Write`, `StrReplace`, `edit_file`…): any tool whose
 * name says write/edit/replace/delete and whose input names a file counts.
 */
export function isCursorEditTool(name: string): boolean {
  return /write|edit|replace|delete/i.test(name) && !/^mcp/i.test(name);
}

export function pathKey(input: Record<string, unknown>): string | null {
  for (const key of ["file_path", "path", "target_file", "filePath"]) {
    if (typeof input[key] === "string" && input[key] !== "") return key;
  }
  return null;
}

/** If the tool writes one. */
export function contentKey(input: Record<string, unknown>): string | null {
  for (const key of ["content", "contents", "file_text", "code_edit"]) {
    if (typeof input[key] === "string") return key;
  }
  return null;
}

const s = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

export function cursorPendingWrite(
  toolName: string,
  input: Record<string, unknown>,
  session: string,
): PendingWrite | null {
  const key = pathKey(input);
  if (key === null) return null;
  const base = { tool: toolName, path: input[key] as string, agent: "cursor", session };
  const ck = contentKey(input);
  if (ck !== null && ck !== "code_edit") return { ...base, content: input[ck] as string };
  const oldString = s(input.old_string);
  const newString = s(input.new_string);
  if (oldString === undefined && newString === undefined) return base;
  return {
    ...base,
    ...(oldString === undefined ? {} : { oldString }),
    ...(newString === undefined ? {} : { newString }),
    ...(input.replace_all === true ? { replaceAll: true } : {}),
  };
}
