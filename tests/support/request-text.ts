/**
 * Reads what the model was shown out of a recorded Messages API request.
 * Claude Code 2.1.x puts hook output in `role: "system"` messages after the tool results,
 * so "the latest user content" here means every message after the last assistant message.
 */
import type { MessagesBody, RecordedRequest } from "./fake-anthropic.ts";

/** A message content block, loosely typed: the CLI sends text, tool_result, image, ... */
export type ContentBlock = { type: string; [key: string]: unknown };

/**
 * The content blocks the model received since its last turn: tool results, hook output
 * (system messages), reminders and prompt text, in order. Strings become text blocks.
 */
export function lastUserContent(req: RecordedRequest): ContentBlock[] {
  const messages = (req.body as MessagesBody | undefined)?.messages ?? [];
  let start = 0;
  messages.forEach((message, index) => {
    if (message.role === "assistant") start = index + 1;
  });
  return messages.slice(start).flatMap((message) => toBlocks(message.content));
}

/**
 * One searchable string of everything in `lastUserContent(req)`: tool_result contents
 * (nested text included), text blocks and system-reminder text, joined by newlines.
 *
 * @example
 * expect(textOf(api.turns()[1]!)).toContain("MARKER-123");
 */
export function textOf(req: RecordedRequest): string {
  return flatten(lastUserContent(req));
}

/** Like `textOf` but over the whole conversation in the request, all roles. */
export function conversationText(req: RecordedRequest): string {
  const messages = (req.body as MessagesBody | undefined)?.messages ?? [];
  return flatten(messages.flatMap((message) => toBlocks(message.content)));
}

/** The tool_result blocks since the model's last turn. */
export function toolResults(req: RecordedRequest): ContentBlock[] {
  return lastUserContent(req).filter((block) => block.type === "tool_result");
}

function toBlocks(content: unknown): ContentBlock[] {
  if (typeof content === "string") return [{ type: "text", text: content }];
  if (Array.isArray(content)) return content as ContentBlock[];
  return [];
}

function flatten(blocks: ContentBlock[]): string {
  const parts: string[] = [];
  for (const block of blocks) {
    if (typeof block.text === "string") parts.push(block.text);
    if (block.type === "tool_result") parts.push(flatten(toBlocks(block.content)));
  }
  return parts.join("\n");
}
