/**
 * `cpilot _format-call`: what the Claude Code mod runs before a Write or Edit is recorded.
 * Reads the mod's request on stdin, writes `{ input }` (the rewritten arguments) or
 * `{ why }` (leave them) on stdout, within the budget the request names. Always exit 0: the
 * mod passes the call through on anything but a reply it can read.
 */

import { resolve } from "node:path";
import {
  existingFolderOf,
  type FormatReply,
  formatCall,
  parseFormatRequest,
} from "../agents/claude/mod/format-call.ts";
import { loadProjectConfigSupervised } from "../config/supervised-load.ts";
import { readStdin } from "../hook/stdin.ts";
import { writeOut } from "../platform/stdio.ts";

/** The longest the mod waits, whatever a request asks: under the 10 s after which Claude Code skips a hook. */
export const FORMAT_BUDGET_MS = 8_000;

async function answer(text: string): Promise<FormatReply> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { why: "the request is not JSON" };
  }
  const request = parseFormatRequest(value, process.cwd());
  if (request === null) return { why: "the request is not a Write or Edit call" };
  const asked = Number((value as { budgetMs?: unknown }).budgetMs);
  const budget =
    Number.isFinite(asked) && asked > 0 ? Math.min(asked, FORMAT_BUDGET_MS) : FORMAT_BUDGET_MS;
  const started = Date.now();
  const signal = AbortSignal.timeout(budget);
  const path = request.call.input.file_path;
  if (typeof path !== "string") return { why: "the call names no file" };
  try {
    const from = existingFolderOf(resolve(request.cwd, path));
    const config = await loadProjectConfigSupervised(from, undefined, signal);
    return await formatCall(request, config, {
      signal,
      deadlineMs: Math.max(1, budget - (Date.now() - started)),
    });
  } catch (err) {
    return { why: `cpilot could not format it (${(err as Error).message})` };
  }
}

/** Answer one request; the reply is one line of JSON. */
export async function formatCallCommand(): Promise<number> {
  const input = await readStdin();
  const reply: FormatReply = input.complete
    ? await answer(input.text)
    : { why: "no request on stdin" };
  writeOut(`${JSON.stringify(reply)}\n`);
  return 0;
}
