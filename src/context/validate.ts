import { matchesGlob } from "./_glob.ts";
import { MAX_BLOCK_BYTES, mib } from "./limits.ts";
import { ACTIONS, type Action, type UpdateCommand } from "./types.ts";

export const DEFAULT_ALLOWED_FILES: readonly string[] = ["*.md"];

export function isAction(value: string): value is Action {
  return (ACTIONS as readonly string[]).includes(value);
}

/** Before the file system is asked. */
export function fileNameProblems(file: string, allowed: readonly string[]): string[] {
  if (file === "") return ["file is missing"];
  if (file.includes("\0")) return ["file contains a NUL byte"];
  if (/^([/\\]|[A-Za-z]:)/.test(file)) return [`file "${file}" is absolute`];
  if (file.includes("\\")) return [`file "${file}" contains a backslash`];
  if (file.split("/").includes("..")) return [`file "${file}" leaves the context directory`];
  const normalized = file
    .split("/")
    .filter((part) => part !== "" && part !== ".")
    .join("/");
  if (!matchesGlob(normalized, allowed)) {
    return [`file "${file}" is not one of the allowed context files (${allowed.join(", ")})`];
  }
  return [];
}

function fenceProblem(content: string): string | null {
  let fence: string | null = null;
  for (const line of content.split("\n")) {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker === undefined) continue;
    if (fence === null) fence = marker;
    else if (marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) {
      fence = null;
    }
  }
  return fence === null ? null : `content opens a ${fence} code fence that never closes`;
}

/** All at once; empty means it can be applied. The file system is not consulted. */
export function validateUpdate(
  command: UpdateCommand,
  options: { allowedFiles?: readonly string[] } = {},
): string[] {
  const problems = fileNameProblems(command.file, options.allowedFiles ?? DEFAULT_ALLOWED_FILES);
  const { action } = command;
  if (action === "") problems.push("action is missing");
  else if (!isAction(action)) {
    problems.push(`action "${action}" is not one of ${ACTIONS.join(", ")}`);
  }
  for (const name of command.unknownAttributes ?? []) {
    problems.push(`attribute "${name}" is unknown (known: file, action, section, id)`);
  }
  const needsId = action === "update" || action === "remove" || action === "complete";
  if (needsId && (command.id ?? "").trim() === "") problems.push(`${action} needs an id`);
  const needsContent = action === "add" || action === "update";
  if (needsContent && command.content.trim() === "") problems.push(`${action} needs content`);
  if (command.section !== undefined && command.section.trim() === "") {
    problems.push("section is empty");
  }
  const size = Buffer.byteLength(command.content);
  if (size > MAX_BLOCK_BYTES) {
    problems.push(`content is ${mib(size)}, over the ${mib(MAX_BLOCK_BYTES)} limit for one block`);
    return problems;
  }
  const fence = fenceProblem(command.content);
  if (fence !== null) problems.push(fence);
  return problems;
}
