/**
 * The Claude Code mod's call before a Write or Edit runs: the arguments with the file as
 * the project's fixers would leave it. Anything undecidable leaves them as they are: the
 * hooks still check the edit after it runs.
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

export interface FormatRequest {
  readonly cwd: string;
  readonly call: FileCall;
  /** Earlier Writes and Edits of the same response, as they will run (already rewritten). */
  readonly earlier: readonly FileCall[];
}

/** The reply: `input` replaces the model's arguments; without it they stay (`why` says why). */
export type FormatReply =
  | { readonly input: Record<string, unknown>; readonly fixers: readonly string[] }
  | { readonly why: string };

/** Past this a file is left as written: the fixers' copy and the Edit's search stay cheap. */
const MAX_FILE_BYTES = 4 * 1024 * 1024;

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

function targetOf(call: FileCall, cwd: string): string | null {
  const path = call.input.file_path;
  if (typeof path !== "string" || path === "" || path.includes("\0")) return null;
  return resolve(cwd, path);
}

/** Where its config is looked for. */
export function existingFolderOf(file: string): string {
  let dir = dirname(file);
  while (!existsSync(dir) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

/** null: does not exist; undefined: cannot be used. */
function currentText(file: string): string | null | undefined {
  if (!existsSync(file)) return null;
  if (!statSync(file).isFile()) return undefined;
  const bytes = readRegularFile(file, MAX_FILE_BYTES);
  if (bytes === null) return undefined;
  const text = bytes.toString("utf8");
  return Buffer.from(text, "utf8").equals(bytes) ? text : undefined;
}

/** The gate decides first, as the PreToolUse hook will: a write it would refuse or change is never touched. */
export async function formatCall(
  request: FormatRequest,
  config: ResolvedConfig,
  options: { readonly signal: AbortSignal; readonly deadlineMs: number },
): Promise<FormatReply> {
  const { call, cwd } = request;
  const file = targetOf(call, cwd);
  if (file === null) return { why: "the call names no file" };
  // Most calls meet no fixer: answered before the gate loads.
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
