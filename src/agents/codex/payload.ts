import {
  parseToolHookPayload,
  readHookJson,
  str,
  type ToolHookPayload,
} from "../../hook/hook-input.ts";

/** Claude Code's schema; SubagentStop adds `agent_id`. */
export type CodexHookInput = ToolHookPayload<unknown> & {
  readonly source: string | undefined;
  readonly agentId: string | undefined;
};

export function parseCodexInput(
  text: string,
  fallbackCwd: string,
): { ok: true; input: CodexHookInput } | { ok: false; error: string } {
  const parsed = parseToolHookPayload(text, fallbackCwd, (value) => value);
  if (!parsed.ok) return parsed;
  const read = readHookJson(text);
  const source = read.ok ? str(read.raw.source) : undefined;
  const agentId = read.ok ? str(read.raw.agent_id) || undefined : undefined;
  return { ok: true, input: { ...parsed.input, source, agentId } };
}
