/**
 * Claude Code's API. The scripted step is the number of assistant messages in the request;
 * a request without tools (a title, a quota probe) is a side request and gets a plain "ok".
 */
import type { ServerResponse } from "node:http";
import { type ApiShape, type ScriptStep, sendEvents, sendJson } from "./server.ts";

interface MessagesBody {
  model?: string;
  max_tokens?: number;
  stream?: boolean;
  tools?: unknown[];
  messages?: { role: string; content: unknown }[];
}

type Block =
  | { type: "text"; text: string }
  | { type: "tool_use"; id: string; name: string; input: Record<string, unknown> };

export const anthropicMessages: ApiShape = (request, script, res) => {
  if (request.method === "POST" && request.path === "/v1/messages/count_tokens") {
    sendJson(res, 200, { input_tokens: 100 });
    return "side";
  }
  if (request.method !== "POST" || request.path !== "/v1/messages") return null;
  const body = (request.body ?? {}) as MessagesBody;
  const side = body.max_tokens === 1 || !Array.isArray(body.tools) || body.tools.length === 0;
  const index = assistantMessages(body).length;
  const blocks: Block[] = side ? [{ type: "text", text: "ok" }] : blocksFor(script, index);
  reply(res, body, blocks);
  return side ? "side" : "turn";
};

export function assistantMessages(body: unknown): { role: string; content: unknown }[] {
  const messages = (body as MessagesBody | undefined)?.messages ?? [];
  return messages.filter((m) => m.role === "assistant");
}

export function messagesAfterTurn(body: unknown, turn: number): unknown[] {
  const messages = (body as MessagesBody | undefined)?.messages ?? [];
  let seen = -1;
  for (const [i, m] of messages.entries()) {
    if (m.role === "assistant") seen++;
    if (seen === turn) return messages.slice(i + 1);
  }
  return [];
}

function blocksFor(script: readonly ScriptStep[], index: number): Block[] {
  const step = script[Math.min(index, script.length - 1)] as ScriptStep;
  if ("done" in step) return [{ type: "text", text: step.done }];
  return [
    {
      type: "tool_use",
      id: `toolu_cpilot_proof_${index}`,
      name: "Write",
      input: { file_path: step.write, content: step.content },
    },
  ];
}

function reply(res: ServerResponse, body: MessagesBody, blocks: Block[]): void {
  const stop = blocks.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn";
  const usage = { input_tokens: 100, output_tokens: 10 };
  const message = {
    id: `msg_cpilot_proof_${Date.now()}`,
    type: "message",
    role: "assistant",
    model: body.model ?? "cpilot-proof",
    stop_sequence: null,
    usage: { ...usage, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
  };
  if (body.stream !== true) {
    sendJson(res, 200, { ...message, content: blocks, stop_reason: stop });
    return;
  }
  const events: { event: string; data: unknown }[] = [
    {
      event: "message_start",
      data: { type: "message_start", message: { ...message, content: [], stop_reason: null } },
    },
  ];
  blocks.forEach((block, index) => {
    const start =
      block.type === "text" ? { type: "text", text: "" } : { ...block, input: {} as object };
    const delta =
      block.type === "text"
        ? { type: "text_delta", text: block.text }
        : { type: "input_json_delta", partial_json: JSON.stringify(block.input) };
    events.push(
      {
        event: "content_block_start",
        data: { type: "content_block_start", index, content_block: start },
      },
      { event: "content_block_delta", data: { type: "content_block_delta", index, delta } },
      { event: "content_block_stop", data: { type: "content_block_stop", index } },
    );
  });
  events.push(
    {
      event: "message_delta",
      data: {
        type: "message_delta",
        delta: { stop_reason: stop, stop_sequence: null },
        usage: { output_tokens: 10 },
      },
    },
    { event: "message_stop", data: { type: "message_stop" } },
  );
  sendEvents(res, events);
}
