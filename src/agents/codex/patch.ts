/**
 * The files an `apply_patch` call touches, read from its patch text:
 *
 * ```
 * *** Begin Patch
 * *** Add File: src/new file.ts
 * +line
 * *** Update File: src/a.ts
 * *** Move to: src/b.ts
 * @@ …
 * *** Delete File: old.ts
 * *** End Patch
 * ```
 *
 * A header is a line that starts exactly with its marker (hunk and content lines start
 * with `+`, `-`, ` ` or `@@`, so a file that merely mentions a marker is not misread);
 * the path is the rest of the line, spaces and all, without the line break and trailing
 * blanks. Text before `*** Begin Patch` (a heredoc wrapper) and after `*** End Patch` is
 * ignored.
 */
import type { PatchFile } from "../kit/patch/patch-file.ts";

const ADD = "*** Add File: ";
const UPDATE = "*** Update File: ";
const DELETE = "*** Delete File: ";
const MOVE = "*** Move to: ";

/** Every file section of a patch, in order. */
export function parsePatch(text: string): PatchFile[] {
  const lines = text.split("\n").map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l));
  const begin = lines.findIndex((l) => l.trim() === "*** Begin Patch");
  const out: PatchFile[] = [];
  let current: { op: PatchFile["op"]; path: string; moveTo?: string; added: string[] } | null =
    null;
  const flush = (): void => {
    if (current === null || current.path === "") return;
    out.push({
      op: current.op,
      path: current.path,
      ...(current.moveTo ? { moveTo: current.moveTo } : {}),
      ...(current.op === "add"
        ? { content: current.added.length === 0 ? "" : `${current.added.join("\n")}\n` }
        : {}),
    });
  };
  for (const line of lines.slice(begin + 1)) {
    if (line.trim() === "*** End Patch") break;
    const header = headerOf(line);
    if (header !== null) {
      if (header.op === "move") {
        if (current !== null && current.op === "update") current.moveTo = header.path;
        continue;
      }
      flush();
      current = { op: header.op, path: header.path, added: [] };
      continue;
    }
    if (current?.op === "add" && line.startsWith("+")) current.added.push(line.slice(1));
  }
  flush();
  return out;
}

function headerOf(line: string): { op: PatchFile["op"] | "move"; path: string } | null {
  if (!line.startsWith("*** ")) return null;
  const clean = (s: string): string => s.replace(/[ \t]+$/, "");
  if (line.startsWith(ADD)) return { op: "add", path: clean(line.slice(ADD.length)) };
  if (line.startsWith(UPDATE)) return { op: "update", path: clean(line.slice(UPDATE.length)) };
  if (line.startsWith(DELETE)) return { op: "delete", path: clean(line.slice(DELETE.length)) };
  if (line.startsWith(MOVE)) return { op: "move", path: clean(line.slice(MOVE.length)) };
  return null;
}

/**
 * The same patch with an Add File section's path and/or content replaced (what a gate
 * plugin decided). Other sections stay byte for byte.
 */
export function rewriteAddFile(
  text: string,
  path: string,
  next: { path: string; content: string | undefined },
): string {
  const lines = text.split("\n");
  const out: string[] = [];
  let inTarget = false;
  for (const raw of lines) {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    const header = headerOf(line);
    if (inTarget && (header !== null || line.trim() === "*** End Patch")) inTarget = false;
    if (header?.op === "add" && header.path === path && !inTarget) {
      inTarget = true;
      out.push(`${ADD}${next.path}`);
      if (next.content !== undefined) {
        const body = next.content.endsWith("\n") ? next.content.slice(0, -1) : next.content;
        if (next.content !== "") for (const l of body.split("\n")) out.push(`+${l}`);
      }
      continue;
    }
    if (inTarget && next.content !== undefined && line.startsWith("+")) continue;
    out.push(raw);
  }
  return out.join("\n");
}

/** The patch text of an apply_patch call: `tool_input.command` as a string, or inside an argv. */
export function patchText(input: Record<string, unknown>): string | null {
  const command = input.command ?? input.patch ?? input.input;
  if (typeof command === "string") return command;
  if (Array.isArray(command)) {
    const part = command.find((c) => typeof c === "string" && c.includes("*** Begin Patch"));
    return typeof part === "string" ? part : null;
  }
  return null;
}
