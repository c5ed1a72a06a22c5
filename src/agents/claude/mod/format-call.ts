/**
 * The answer to the Claude Code mod's call before a Write or Edit is recorded or run: the
 * model's arguments with the file as the project's fixers would leave it, or why they stay
 * as the model wrote them. Anything cpilot cannot decide leaves them as they are: the hooks
 * still check and resync the edit after it runs.
 */
import { existsSync, statSync } from "node:fs";
import { dirname, isAbsolute, relative, resolve, sep } from "node:path";
import type { ResolvedConfig } from "../../../config/resolve.ts";
import { fixersOf, formatContent } from "../../../engine/format-content.ts";
import { stateDirsHere } from "../../../hook/edit-gate.ts";
import { readRegularFile } from "../../../util/read-regular.ts";
import { claudeProtocol } from "../protocol.ts";
import { type FileCall, textAfterCall } from "./apply-call.ts";
import { deriveEdit } from "./derive-edit.ts";

/** What the mod sends (the call and the calls before it in the same response), and the session's folder. */
export interface FormatRequest {
  /** The folder Claude Code runs the call in: the mod's process starts there. */
  readonly cwd: string;
  readonly call: FileCall;
  /** Earlier Writes and Edits of the same response, as they will run (already rewritten). */
  readonly earlier: readonly FileCall[];
}

/** The reply: `input` replaces the model's arguments; without it they stay (`why` says why). */
export type FormatReply =
  | { readonly input: Record<string, unknown>; readonly fixers: readonly string[] }
  | { readonly why: string };

/** Files past this are left as written: the fixers' copy and the Edit's search stay cheap. */
const MAX_FILE_BYTES = 4 * 1024 * 1024;

/** The request as the mod sent it, or null when it is not one. */
export function parseFormatRequest(value: unknown, cwd: string): FormatRequest | null {
  if (typeof value !== "object" || value === null) return null;
  const { call, earlier } = value as Record<string, unknown>;
  const asCall = (c: unknown): FileCall | null => {
    if (typeof c !== "object" || c === null) return null;
    const { tool, input } = c as Record<string, unknown>;
    if ((tool !== "Write" && tool !== "Edit") || typeof input !== "object" || input === null)
      return null;
    return { tool, input: input as Record<string, unknown> };
  };
  const parsed = asCall(call);
  const before = Array.isArray(earlier) ? earlier.map(asCall) : [];
  if (!isAbsolute(cwd) || parsed === null || before.includes(null)) return null;
  return { cwd, call: parsed, earlier: before as FileCall[] };
}

/** The file a call names, absolute; null when it names none. */
function targetOf(call: FileCall, cwd: string): string | null {
  const path = call.input.file_path;
  if (typeof path !== "string" || path === "" || path.includes("\0")) return null;
  return resolve(cwd, path);
}

/** The nearest folder of `file` that exists: where its config is looked for. */
export function existingFolderOf(file: string): string {
  let dir = dirname(file);
  while (!existsSync(dir) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

/** The file's text now: null when it does not exist; undefined when it cannot be used. */
function currentText(file: string): string | null | undefined {
  if (!existsSync(file)) return null;
  if (!statSync(file).isFile()) return undefined;
  const bytes = readRegularFile(file, MAX_FILE_BYTES);
  if (bytes === null) return undefined;
  const text = bytes.toString("utf8");
  return Buffer.from(text, "utf8").equals(bytes) ? text : undefined;
}

/**
 * Format the call's result with `config`'s fixers and rewrite the call to produce it. The
 * gate decides first, as it will in the PreToolUse hook: a write it would refuse or change
 * is never touched here.
 */
export async function formatCall(
  request: FormatRequest,
  config: ResolvedConfig,
  options: { readonly signal: AbortSignal; readonly deadlineMs: number },
): Promise<FormatReply> {
  const { call, cwd } = request;
  const file = targetOf(call, cwd);
  if (file === null) return { why: "the call names no file" };
  // Most calls in most projects meet no fixer: they are answered before the gate is loaded.
  const asSeen = relative(config.root, file).split(sep).join("/");
  if (fixersOf(config, asSeen).length === 0) return { why: "no fixer matches the file" };
  const { evaluateWrite } = await import("../../../gate/evaluate.ts");
  const decision = await evaluateWrite(
    {
      tool: call.tool,
      path: file,
      agent: "claude",
      ...(typeof call.input.content === "string" ? { content: call.input.content } : {}),
      ...(typeof call.input.old_string === "string" ? { oldString: call.input.old_string } : {}),
      ...(typeof call.input.new_string === "string" ? { newString: call.input.new_string } : {}),
    },
    {
      root: config.root,
      config: config.source.gate ?? {},
      tty: false,
      log: false,
      stateDirs: stateDirsHere(claudeProtocol),
    },
  );
  if (decision.decision !== "allow" || decision.modified !== undefined)
    return { why: "the gate decides this write" };
  const rel = decision.relativePath;
  if (rel === undefined) return { why: "the file is outside the project" };
  let current = currentText(file);
  if (current === undefined) return { why: "the file is not a text file cpilot reads" };
  for (const before of request.earlier) {
    if (targetOf(before, cwd) !== file) continue;
    const next = textAfterCall(before, current);
    if (next === null) return { why: "an earlier call of the response does not apply" };
    current = next;
  }
  const after = textAfterCall(call, current);
  if (after === null) return { why: "Claude Code would refuse the call as given" };
  const formatted = await formatContent(config, rel, after, options);
  if (formatted.kind === "unchanged") return { why: formatted.why };
  if (formatted.text === after) return { why: "the fixers change nothing" };
  if (call.tool === "Write")
    return { input: { ...call.input, content: formatted.text }, fixers: formatted.fixers };
  const edit = current === null ? null : deriveEdit(current, formatted.text);
  if (edit === null) return { why: "no Edit gives the formatted text" };
  const { replace_all: _all, ...rest } = call.input;
  return { input: { ...rest, ...edit }, fixers: formatted.fixers };
}
