/**
 * A fake OpenAI-style model API on 127.0.0.1 for the real agent CLIs that speak it: the
 * Responses API (`POST …/responses`, Codex CLI) and Chat Completions (`POST
 * …/chat/completions`, Copilot CLI, Qwen Code, OpenCode), streamed or not. A request that
 * offers tools is a turn of the agent loop and gets the next scripted turn (counted from
 * the assistant turns its history holds); one without tools (titles, summaries) gets "ok".
 * It is also the run's HTTP(S) proxy: a request meant for any other host is refused and
 * recorded as an escape.
 */
import type { ServerResponse } from "node:http";
import { type FakeRequest, type FakeServer, readJsonBody, startFake } from "./fake-server.ts";

/** One step of a scripted model turn. */
export type Step =
  | { readonly text: string }
  /**
   * A function call; `args` are JSON-encoded for the wire. `namespace`: the Responses API
   * tool namespace it belongs to (Codex's `collaboration` tools).
   */
  | { readonly tool: string; readonly args: Record<string, unknown>; readonly namespace?: string }
  /** A Responses API custom (freeform) tool call, e.g. Codex's apply_patch. */
  | { readonly customTool: string; readonly input: string };

export type RecordedRequest = FakeRequest<Record<string, unknown>>;

export type FakeOpenAI = FakeServer<RecordedRequest>;

type Item = Record<string, unknown>;

/** How many assistant turns a request's history holds (consecutive assistant items are one). */
function turnIndex(body: Record<string, unknown>): number {
  const history = (body.input ?? body.messages ?? []) as Item[];
  if (!Array.isArray(history)) return 0;
  let turns = 0;
  let inAssistant = false;
  for (const item of history) {
    const assistant =
      item.role === "assistant" ||
      item.type === "function_call" ||
      item.type === "custom_tool_call" ||
      item.type === "reasoning";
    if (assistant && !inAssistant) turns++;
    inAssistant = assistant;
  }
  return turns;
}

let callCounter = 0;

function responsesItems(steps: readonly Step[]): Item[] {
  return steps.map((step, i) => {
    const id = `${++callCounter}`;
    if ("text" in step)
      return {
        type: "message",
        role: "assistant",
        id: `msg_${id}`,
        status: "completed",
        content: [{ type: "output_text", text: step.text, annotations: [] }],
      };
    if ("customTool" in step)
      return {
        type: "custom_tool_call",
        id: `ctc_${id}`,
        call_id: `call_${id}_${i}`,
        name: step.customTool,
        input: step.input,
      };
    return {
      type: "function_call",
      id: `fc_${id}`,
      call_id: `call_${id}_${i}`,
      name: step.tool,
      ...(step.namespace ? { namespace: step.namespace } : {}),
      arguments: JSON.stringify(step.args),
    };
  });
}

function answerResponses(res: ServerResponse, steps: readonly Step[]): void {
  const id = `resp_${++callCounter}`;
  res.writeHead(200, { "content-type": "text/event-stream" });
  const send = (event: Item): void => {
    res.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
  };
  send({ type: "response.created", response: { id } });
  responsesItems(steps).forEach((item, i) => {
    send({ type: "response.output_item.done", output_index: i, item });
  });
  send({
    type: "response.completed",
    response: {
      id,
      usage: { input_tokens: 10, output_tokens: 5, total_tokens: 15 },
    },
  });
  res.end();
}

function chatMessage(steps: readonly Step[]): Item {
  const text = steps.flatMap((s) => ("text" in s ? [s.text] : [])).join("\n");
  const calls = steps.flatMap((s, index) =>
    "tool" in s
      ? [
          {
            index,
            id: `call_${++callCounter}`,
            type: "function",
            function: { name: s.tool, arguments: JSON.stringify(s.args) },
          },
        ]
      : [],
  );
  return {
    role: "assistant",
    content: text === "" ? null : text,
    ...(calls.length > 0 ? { tool_calls: calls } : {}),
  };
}

/** The tokens a Chat Completions answer reports it used. */
export interface ChatUsage {
  readonly prompt_tokens: number;
  readonly completion_tokens: number;
  readonly total_tokens: number;
}

const SMALL_USAGE: ChatUsage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };

function answerChat(
  res: ServerResponse,
  steps: readonly Step[],
  stream: boolean,
  model: string,
  usage: ChatUsage,
): void {
  const message = chatMessage(steps);
  const finish = message.tool_calls ? "tool_calls" : "stop";
  const id = `chatcmpl-${++callCounter}`;
  const created = Math.floor(Date.now() / 1000);
  if (!stream) {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(
      JSON.stringify({
        id,
        object: "chat.completion",
        created,
        model,
        choices: [{ index: 0, message, finish_reason: finish }],
        usage,
      }),
    );
    return;
  }
  res.writeHead(200, { "content-type": "text/event-stream" });
  const chunk = (delta: Item, finishReason: string | null, extra: Item = {}): void => {
    res.write(
      `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model, choices: [{ index: 0, delta, finish_reason: finishReason }], ...extra })}\n\n`,
    );
  };
  chunk({ role: "assistant", content: message.content ?? "" }, null);
  if (message.tool_calls) chunk({ tool_calls: message.tool_calls }, null);
  chunk({}, finish, { usage });
  res.write("data: [DONE]\n\n");
  res.end();
}

/**
 * The model's turns: one per entry, or a function of the request's body and its turn index
 * (for sessions with more than one conversation, such as a subagent's beside its parent's).
 */
export type Script =
  | readonly (readonly Step[])[]
  | ((body: Record<string, unknown>, turn: number) => readonly Step[] | undefined);

/**
 * Start the fake with one scripted turn per entry; `onTurn(n)` runs before turn `n` is
 * answered (the tools of the turn before have finished by then); `usage` says what a Chat
 * Completions answer to a request reports it used (a few tokens unless it says otherwise),
 * so a test can make the agent think its context is full.
 */
export async function startFakeOpenAI(
  script: Script,
  onTurn?: (turn: number) => void,
  usage?: (request: RecordedRequest, turn: number) => ChatUsage | undefined,
): Promise<FakeOpenAI> {
  const requests: RecordedRequest[] = [];
  return startFake(requests, async (req, res, url) => {
    const body = await readJsonBody<Record<string, unknown>>(req);
    const responses = /\/responses$/.test(url.split("?")[0] ?? "");
    const chat = /\/chat\/completions$/.test(url.split("?")[0] ?? "");
    if (req.method !== "POST" || body === null || (!responses && !chat)) {
      requests.push({ method: req.method ?? "", path: url, kind: "other", body });
      if (/\/models/.test(url)) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ object: "list", data: [{ id: "fake-model", object: "model" }] }));
        return;
      }
      res.writeHead(404, { "content-type": "application/json" }).end("{}");
      return;
    }
    const isTurn = Array.isArray(body.tools) && body.tools.length > 0;
    const request: RecordedRequest = {
      method: "POST",
      path: url,
      kind: isTurn ? "turn" : "side",
      body,
    };
    requests.push(request);
    if (isTurn) onTurn?.(turnIndex(body));
    const turn = turnIndex(body);
    const scripted = typeof script === "function" ? script(body, turn) : script[turn];
    const steps: readonly Step[] = isTurn
      ? (scripted ?? [{ text: "(fake model: script exhausted)" }])
      : [{ text: "ok" }];
    if (responses) answerResponses(res, steps);
    else {
      const used = usage?.(request, turn) ?? SMALL_USAGE;
      answerChat(res, steps, body.stream === true, String(body.model ?? "fake-model"), used);
    }
  });
}

/** What a request's history holds after the model's last turn (tool results, hook notes), as text. */
export function afterLastTurn(req: RecordedRequest): string {
  const history = ((req.body?.input ?? req.body?.messages ?? []) as Item[]) || [];
  let i = history.length - 1;
  while (i >= 0) {
    const item = history[i] as Item;
    if (
      item.role === "assistant" ||
      item.type === "function_call" ||
      item.type === "custom_tool_call"
    )
      break;
    i--;
  }
  return JSON.stringify(history.slice(i + 1));
}
