/** Answers one request of the mod; anything that fails on the way leaves the call as written. */
import { resolve } from "node:path";
import { loadProjectConfigSupervised } from "../../../config/supervised-load.ts";
import {
  existingFolderOf,
  type FormatReply,
  formatCall,
  parseFormatRequest,
} from "./format-call.ts";

/** Under the 10 s after which Claude Code skips a hook, whatever a request asks. */
export const FORMAT_BUDGET_MS = 8_000;

export async function answerFormatRequest(text: string, cwd: string): Promise<FormatReply> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { why: "the request is not JSON" };
  }
  const request = parseFormatRequest(value, cwd);
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
