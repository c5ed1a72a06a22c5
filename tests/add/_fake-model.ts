/**
 * A fake model API on 127.0.0.1 for `cpilot add`: answers Anthropic Messages and OpenAI
 * chat completions requests from a script, records every request, and can fail the
 * ways real APIs do (HTTP errors, bodies that are not JSON, no answer at all).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { listenOnLoopback } from "../../src/proof/model/loopback.ts";

export interface Recorded {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown>;
}

/** One scripted answer. `hang`: never answer (the client must time out). */
export type Answer =
  | { status?: number; json: unknown }
  | { status?: number; raw: string }
  | { hang: true };

export interface FakeModel {
  /** Base URL: `http://127.0.0.1:PORT`. */
  url: string;
  requests: Recorded[];
  close(): Promise<void>;
}

/** A Messages API reply whose one content block calls the tool with `input`. */
export function anthropicCalls(input: unknown): Answer {
  return {
    json: {
      id: "msg_fake",
      type: "message",
      role: "assistant",
      model: "fake",
      content: [{ type: "tool_use", id: "toolu_fake", name: "save_callback", input }],
      stop_reason: "tool_use",
      usage: { input_tokens: 1, output_tokens: 1 },
    },
  };
}

/** A chat completion whose message calls the function; a string is sent as raw arguments. */
export function openaiCalls(args: unknown): Answer {
  return {
    json: {
      id: "chatcmpl-fake",
      object: "chat.completion",
      choices: [
        {
          index: 0,
          finish_reason: "tool_calls",
          message: {
            role: "assistant",
            content: null,
            tool_calls: [
              {
                id: "call_fake",
                type: "function",
                function: {
                  name: "save_callback",
                  arguments: typeof args === "string" ? args : JSON.stringify(args),
                },
              },
            ],
          },
        },
      ],
    },
  };
}

/** Start the fake. Past the end of the script it answers HTTP 599 so a test sees it. */
export async function startFakeModel(script: Answer[]): Promise<FakeModel> {
  const requests: Recorded[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {
        // recorded as {}
      }
      const index = requests.length;
      requests.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers, body });
      const answer = script[index];
      if (answer === undefined) {
        res.writeHead(599, { "content-type": "text/plain" }).end("fake-model: script exhausted");
        return;
      }
      if ("hang" in answer) return;
      const text = "json" in answer ? JSON.stringify(answer.json) : answer.raw;
      res.writeHead(answer.status ?? 200, { "content-type": "application/json" }).end(text);
    });
  });
  // A tunnel through it to another host is refused, like any fake of a model API's.
  const listening = await listenOnLoopback(server, () => {});
  return { url: listening.url, requests, close: listening.close };
}

/** The user message text of a recorded request, for either API. */
export function userText(request: Recorded): string {
  const messages = request.body.messages as { role: string; content: unknown }[] | undefined;
  const user = messages?.filter((m) => m.role === "user").pop();
  return typeof user?.content === "string" ? user.content : JSON.stringify(user?.content);
}
