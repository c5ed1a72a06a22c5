import { resolve } from "node:path";
import { patchUnreadable, SHELL_PATCH_UNREADABLE } from "../../hook/messages.ts";
import { readCodexPatch, readCodexPatchLayout } from "../kit/patch/codex-reading.ts";
import type { PatchFile } from "../kit/patch/patch-file.ts";
import { argvPatch, type ShellPatch, shellPatch } from "./shell-patch.ts";

/** A `matcher` in .codex/hooks.json. */
export const CODEX_PATCH_TOOL = "apply_patch";

/** What Codex's hooks call its shell tools (`exec_command`, `shell`, …). */
export const CODEX_SHELL_TOOL = "Bash";

export type CodexPatchCall =
  | { readonly kind: "none" }
  /** Cannot be read as Codex does: refuse it. */
  | { readonly kind: "unreadable"; readonly reason: string }
  | {
      readonly kind: "patch";
      readonly text: string;
      readonly files: readonly PatchFile[];
      readonly cwd: string;
      /** Sent through the shell: cpilot cannot rewrite it for a plugin. */
      readonly viaShell: boolean;
    };

/** From apply_patch's input or a shell command (see shell-patch.ts); `cwd` is the call's own `workdir`. */
export function codexPatchCall(tool: string, input: unknown, cwd: string): CodexPatchCall {
  const fields =
    typeof input === "object" && input !== null ? (input as Record<string, unknown>) : {};
  const given = TEXT_FIELDS.filter((k) => fields[k] !== undefined).map((k) => fields[k]);
  const command = given[0];
  // Fields that disagree: which one runs is the agent's parsing's choice, so a harmless one
  // must not decide for the other.
  if (new Set(given.map((v) => JSON.stringify(v))).size > 1) {
    const readings = given.map((v) => codexPatchCall(tool, { command: v }, cwd));
    if (tool === CODEX_PATCH_TOOL || readings.some((r) => r.kind !== "none"))
      return { kind: "unreadable", reason: FIELDS_DISAGREE };
    return { kind: "none" };
  }
  if (tool === CODEX_PATCH_TOOL) {
    if (typeof command === "string") return read({ kind: "patch", text: command }, cwd, false);
    if (isArgv(command)) return read(argvPatch(command), cwd, false);
    return { kind: "unreadable", reason: patchUnreadable("Codex", "no patch text in this call") };
  }
  if (typeof command === "string") return read(shellPatch(command), cwd, true);
  if (isArgv(command)) return read(argvPatch(command), cwd, true);
  return { kind: "none" };
}

/** The input fields a Codex tool call's command or patch may be in, as Codex versions name them. */
const TEXT_FIELDS = ["command", "cmd", "patch", "input"] as const;

const FIELDS_DISAGREE =
  "This call carries its command or patch in more than one field, and they differ: cpilot cannot tell which one Codex runs, so the write gate cannot check it. Send the command or patch once.";

const isArgv = (v: unknown): v is string[] =>
  Array.isArray(v) && v.every((s) => typeof s === "string");

function read(found: ShellPatch, cwd: string, viaShell: boolean): CodexPatchCall {
  if (found.kind === "none") return { kind: "none" };
  if (found.kind === "unsure") return { kind: "unreadable", reason: SHELL_PATCH_UNREADABLE };
  const reading = readCodexPatch(found.text);
  if (!reading.ok) return { kind: "unreadable", reason: patchUnreadable("Codex", reading.error) };
  return {
    kind: "patch",
    text: found.text,
    files: reading.files,
    cwd: found.cd === undefined ? cwd : resolve(cwd, found.cd),
    viaShell,
  };
}

/** Other sections stay line for line; null when not found, or the result would not read back as intended. */
export function rewriteAddFile(
  text: string,
  path: string,
  next: { path: string; content: string | undefined },
): string | null {
  const read = readCodexPatchLayout(text);
  if (!read.ok) return null;
  const index = read.files.findIndex((f) => f.op === "add" && f.path === path);
  const span = read.layout.spans[index];
  const file = read.files[index];
  if (span === undefined || file === undefined) return null;
  const content = next.content ?? file.content ?? "";
  const body = content === "" ? [] : content.replace(/\n$/, "").split("\n");
  const lines = read.layout.lines;
  const out = [
    ...lines.slice(0, span[0]),
    `*** Add File: ${next.path}`,
    ...body.map((l) => `+${l}`),
    ...lines.slice(span[1]),
  ].join("\n");
  const check = readCodexPatch(out);
  const expected = read.files.map((f, i) =>
    i === index ? { op: "add", path: next.path, content: body.map((l) => `${l}\n`).join("") } : f,
  );
  return check.ok && JSON.stringify(check.files) === JSON.stringify(expected) ? `${out}\n` : null;
}
