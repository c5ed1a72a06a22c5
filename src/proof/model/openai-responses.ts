/**
 * The Responses API (Codex CLI), always streamed. A write is `apply_patch` as a freeform
 * tool call with an `*** Add File:` patch, which is what Codex offers gpt-5.5.
 */
import { type ApiShape, type ScriptStep, sendEvents, sendJson } from "./server.ts";

type Item = { role?: string; type?: string };

/** Consecutive items the model produced are one turn. */
const isAssistant = (item: Item): boolean =>
  item.role === "assistant" ||
  item.type === "function_call" ||
  item.type === "custom_tool_call" ||
  item.type === "reasoning";

export const openaiResponses: ApiShape = (request, script, res) => {
  if (request.method === "GET" && /\/models$/.test(request.path)) {
    sendJson(res, 200, { object: "list", data: [{ id: "gpt-5.5", object: "model" }] });
    return "side";
  }
  if (request.method !== "POST" || !/\/responses$/.test(request.path)) return null;
  const body = (request.body ?? {}) as { tools?: unknown[] };
  const turn = Array.isArray(body.tools) && body.tools.length > 0;
  const index = assistantTurnsIn(request.body);
  const step = script[Math.min(index, script.length - 1)] as ScriptStep;
  const item =
    !turn || "done" in step
      ? {
          type: "message",
          role: "assistant",
          id: `msg_cpilot_proof_${index}`,
          status: "completed",
          content: [{ type: "output_text", text: turn && "done" in step ? step.done : "ok" }],
        }
      : {
          type: "custom_tool_call",
          id: `ctc_cpilot_proof_${index}`,
          call_id: `call_cpilot_proof_${index}`,
          name: "apply_patch",
          input: addFilePatch(step.write, step.content),
        };
  const id = `resp_cpilot_proof_${index}`;
  sendEvents(res, [
    { event: "response.created", data: { type: "response.created", response: { id } } },
    {
      event: "response.output_item.done",
      data: { type: "response.output_item.done", output_index: 0, item },
    },
    {
      event: "response.completed",
      data: {
        type: "response.completed",
        response: { id, usage: { input_tokens: 10, output_tokens: 5, total_tokens: 15 } },
      },
    },
  ]);
  return turn ? "turn" : "side";
};

function addFilePatch(path: string, content: string): string {
  const lines = content.endsWith("\n") ? content.slice(0, -1).split("\n") : content.split("\n");
  return `*** Begin Patch\n*** Add File: ${path}\n${lines.map((l) => `+${l}`).join("\n")}\n*** End Patch\n`;
}

function inputOf(body: unknown): Item[] {
  const input = (body as { input?: unknown } | undefined)?.input;
  return Array.isArray(input) ? (input as Item[]) : [];
}

export function assistantTurnsIn(body: unknown): number {
  let turns = 0;
  let inAssistant = false;
  for (const item of inputOf(body)) {
    const assistant = isAssistant(item);
    if (assistant && !inAssistant) turns++;
    inAssistant = assistant;
  }
  return turns;
}

export function inputAfterTurn(body: unknown, turn: number): unknown[] {
  const input = inputOf(body);
  let seen = -1;
  let inAssistant = false;
  for (const [i, item] of input.entries()) {
    const assistant = isAssistant(item);
    if (assistant && !inAssistant) seen++;
    inAssistant = assistant;
    if (seen === turn && !assistant) return input.slice(i);
  }
  return [];
}
