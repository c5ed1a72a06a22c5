/**
 * Gemini CLI's API, plain or server-sent events. The scripted step is the number of model
 * turns; a request without tools (routing, next-speaker checks) is a side request.
 */
import type { ApiShape, ScriptStep } from "./server.ts";
import { sendEvents, sendJson } from "./server.ts";

interface GenerateBody {
  contents?: { role: string; parts?: unknown[] }[];
  tools?: unknown[];
}

export const geminiGenerate: ApiShape = (request, script, res) => {
  if (request.path.includes(":countTokens")) {
    sendJson(res, 200, { totalTokens: 10 });
    return "side";
  }
  if (request.method !== "POST" || !/:(stream)?[gG]enerateContent$/.test(request.path)) return null;
  const body = (request.body ?? {}) as GenerateBody;
  const turn = Array.isArray(body.tools) && body.tools.length > 0;
  const parts = turn
    ? partsFor(script, modelTurns(body))
    : [{ text: '{"reasoning":"cpilot proof","model_choice":"pro","next_speaker":"user"}' }];
  const answer = {
    candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }],
    usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
  };
  if (request.path.includes("streamGenerateContent")) sendEvents(res, [{ data: answer }]);
  else sendJson(res, 200, answer);
  return turn ? "turn" : "side";
};

function modelTurns(body: unknown): number {
  return ((body as GenerateBody | undefined)?.contents ?? []).filter((c) => c.role === "model")
    .length;
}

export function contentsAfterTurn(body: unknown, turn: number): unknown[] {
  const contents = (body as GenerateBody | undefined)?.contents ?? [];
  let seen = -1;
  for (const [i, c] of contents.entries()) {
    if (c.role === "model") seen++;
    if (seen === turn) return contents.slice(i + 1);
  }
  return [];
}

export { modelTurns };

function partsFor(script: readonly ScriptStep[], index: number): unknown[] {
  const step = script[Math.min(index, script.length - 1)] as ScriptStep;
  if ("done" in step) return [{ text: step.done }];
  return [
    {
      functionCall: { name: "write_file", args: { file_path: step.write, content: step.content } },
    },
  ];
}
