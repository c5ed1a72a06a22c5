/**
 * Chat Completions (Qwen Code, Copilot CLI, OpenCode). The scripted step is the number of
 * assistant turns; a request without tools (a title, a summary) is a side request.
 */
import type { ApiShape, ScriptStep } from "./server.ts";
import { sendEvents, sendJson } from "./server.ts";

type Message = { role?: string; content?: unknown; tool_calls?: unknown };

export function openaiChat(tool: string, pathArg: string, contentArg: string): ApiShape {
  return (request, script, res) => {
    if (request.method === "GET" && /\/models$/.test(request.path)) {
      sendJson(res, 200, { object: "list", data: [{ id: "cpilot-proof", object: "model" }] });
      return "side";
    }
    if (request.method !== "POST" || !/\/chat\/completions$/.test(request.path)) return null;
    const body = (request.body ?? {}) as { tools?: unknown[]; stream?: boolean; model?: string };
    const turn = Array.isArray(body.tools) && body.tools.length > 0;
    const step = script[Math.min(assistantTurns(body), script.length - 1)] as ScriptStep;
    const message =
      !turn || "done" in step
        ? { role: "assistant", content: turn && "done" in step ? step.done : "ok" }
        : {
            role: "assistant",
            content: null,
            tool_calls: [
              {
                index: 0,
                id: `call_cpilot_proof_${assistantTurns(body)}`,
                type: "function",
                function: {
                  name: tool,
                  arguments: JSON.stringify({ [pathArg]: step.write, [contentArg]: step.content }),
                },
              },
            ],
          };
    const finish = "tool_calls" in message ? "tool_calls" : "stop";
    const base = {
      id: "chatcmpl-cpilot-proof",
      created: Math.floor(Date.now() / 1000),
      model: body.model ?? "cpilot-proof",
    };
    const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
    if (body.stream !== true)
      sendJson(res, 200, {
        ...base,
        object: "chat.completion",
        choices: [{ index: 0, message, finish_reason: finish }],
        usage,
      });
    else {
      const chunk = (delta: unknown, finishReason: string | null, extra = {}) => ({
        data: {
          ...base,
          object: "chat.completion.chunk",
          choices: [{ index: 0, delta, finish_reason: finishReason }],
          ...extra,
        },
      });
      const events = [chunk({ role: "assistant", content: message.content ?? "" }, null)];
      if ("tool_calls" in message) events.push(chunk({ tool_calls: message.tool_calls }, null));
      events.push(chunk({}, finish, { usage }));
      sendEvents(res, events, "[DONE]");
    }
    return turn ? "turn" : "side";
  };
}

export function assistantTurns(body: unknown): number {
  const messages = ((body as { messages?: Message[] } | undefined)?.messages ?? []) as Message[];
  return messages.filter((m) => m.role === "assistant").length;
}

export function messagesAfter(body: unknown, turn: number): unknown[] {
  const messages = ((body as { messages?: Message[] } | undefined)?.messages ?? []) as Message[];
  let seen = -1;
  for (const [i, m] of messages.entries()) {
    if (m.role === "assistant") seen++;
    if (seen === turn) return messages.slice(i + 1);
  }
  return [];
}
