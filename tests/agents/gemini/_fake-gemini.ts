/**
 * A fake Gemini API (generativelanguage v1beta) on 127.0.0.1 that answers the real Gemini
 * CLI with scripted turns, and records every request. It also acts as the run's HTTP(S)
 * proxy, refusing and recording any request meant for another host (an "escape").
 */
import {
  type FakeRequest,
  type FakeServer,
  readJsonBody,
  startFake,
} from "../../support/fake-server.ts";

/** One part of a scripted model turn. */
export type Part =
  | { text: string }
  | { functionCall: { name: string; args: Record<string, unknown> } };

export type GeminiRequest = FakeRequest<GenerateBody>;

/** The fields of a generateContent body the fake looks at. */
export interface GenerateBody {
  contents?: { role: string; parts: Record<string, unknown>[] }[];
  tools?: unknown[];
  systemInstruction?: unknown;
}

export type FakeGemini = FakeServer<GeminiRequest>;

const usage = { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 };

function response(parts: Part[]): Record<string, unknown> {
  return {
    candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }],
    usageMetadata: usage,
    modelVersion: "gemini-2.5-pro",
  };
}

/** The turn index of a request: how many model turns its history holds. */
function turnIndex(body: GenerateBody): number {
  return (body.contents ?? []).filter((c) => c.role === "model").length;
}

/**
 * Start the fake. A request with tools (the agent loop) gets `script[turn]` (or what the
 * function answers for the body and its turn: more than one conversation); one without
 * (routing, next-speaker checks, summaries) gets a short JSON-ish text answer.
 */
export async function startFakeGemini(
  script: Part[][] | ((body: GenerateBody, turn: number) => Part[] | undefined),
): Promise<FakeGemini> {
  const requests: GeminiRequest[] = [];
  return startFake(requests, async (req, res, url) => {
    const body = await readJsonBody<GenerateBody>(req);
    const generate = /:(stream)?[gG]enerateContent/.test(url);
    if (!generate || body === null) {
      requests.push({ method: req.method ?? "", path: url, kind: "other", body });
      res.writeHead(url.includes(":countTokens") ? 200 : 404, {
        "content-type": "application/json",
      });
      res.end(url.includes(":countTokens") ? JSON.stringify({ totalTokens: 10 }) : "{}");
      return;
    }
    const isTurn = Array.isArray(body.tools) && body.tools.length > 0;
    requests.push({ method: req.method ?? "", path: url, kind: isTurn ? "turn" : "side", body });
    const turn = turnIndex(body);
    const scripted = typeof script === "function" ? script(body, turn) : script[turn];
    const parts: Part[] = isTurn
      ? (scripted ?? [{ text: "(fake-gemini: script exhausted)" }])
      : [{ text: '{"reasoning":"fake","model_choice":"pro","next_speaker":"user"}' }];
    if (url.includes("streamGenerateContent")) {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end(`data: ${JSON.stringify(response(parts))}\r\n\r\n`);
    } else {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(response(parts)));
    }
  });
}

/** Every text part (and function response) of a request after the last model turn, as one string. */
export function lastUserText(req: GeminiRequest): string {
  const contents = req.body?.contents ?? [];
  let i = contents.length - 1;
  while (i >= 0 && contents[i]?.role !== "model") i--;
  return JSON.stringify(contents.slice(i + 1));
}
