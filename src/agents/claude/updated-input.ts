import { isAbsolute, resolve } from "node:path";
import type { GateDecision } from "../../model/gate-types.ts";
import { readRegularFile } from "../../util/read-regular.ts";

export type UpdatedInput =
  | { ok: true; input: Record<string, unknown> }
  | { ok: false; reason: string };

/** Past this the gate judges by path only. */
const MAX_EDIT_BYTES = 32 * 1024 * 1024;

function readText(path: string): string | null {
  return readRegularFile(path, MAX_EDIT_BYTES)?.toString("utf8") ?? null;
}

/**
 * Write: the new path and content. Edit / MultiEdit with new content: one edit replacing
 * the whole current file, only when it exists and is not empty (an empty old_string means
 * "create"); otherwise denied, as an Edit cannot carry whole-file content. NotebookEdit: a
 * new path only.
 */
export function updatedToolInput(
  toolName: string,
  input: Record<string, unknown>,
  decision: GateDecision,
): UpdatedInput {
  if (toolName === "Write") {
    return {
      ok: true,
      input: {
        ...input,
        file_path: decision.path,
        ...(decision.content === undefined ? {} : { content: decision.content }),
      },
    };
  }
  if (toolName === "NotebookEdit") {
    if (decision.content !== undefined) {
      return cannot(decision, "a notebook cell edit cannot carry the whole file's new content");
    }
    return { ok: true, input: { ...input, notebook_path: decision.path } };
  }
  if (decision.content === undefined)
    return { ok: true, input: { ...input, file_path: decision.path } };
  const current = readText(decision.path);
  if (current === null || current === "") {
    return cannot(
      decision,
      `${current === null ? "the file does not exist" : "the file is empty"}, so the change cannot be expressed as an Edit`,
    );
  }
  const edit = { old_string: current, new_string: decision.content };
  if (toolName === "MultiEdit") {
    return { ok: true, input: { file_path: decision.path, edits: [edit] } };
  }
  return { ok: true, input: { file_path: decision.path, ...edit, replace_all: false } };
}

function cannot(decision: GateDecision, why: string): UpdatedInput {
  return {
    ok: false,
    reason: `A write-gate plugin wants this file written differently, but ${why}. Use the Write tool with the whole file instead. What the plugin changed:\n${decision.modified?.summary ?? "(no summary)"}`,
  };
}

/** null when one edit does not apply. */
export function intendedMultiEdit(path: string, cwd: string, edits: unknown): string | null {
  if (!Array.isArray(edits)) return null;
  let text = readText(isAbsolute(path) ? path : resolve(cwd, path)) ?? "";
  for (const edit of edits) {
    if (typeof edit !== "object" || edit === null) return null;
    const e = edit as { old_string?: unknown; new_string?: unknown; replace_all?: unknown };
    if (typeof e.old_string !== "string" || typeof e.new_string !== "string") return null;
    if (e.old_string === "" || !text.includes(e.old_string)) return null;
    const replacement = e.new_string;
    text =
      e.replace_all === true
        ? text.split(e.old_string).join(replacement)
        : text.replace(e.old_string, () => replacement);
  }
  return text;
}
