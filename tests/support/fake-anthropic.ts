/**
 * A fake Anthropic Messages API on 127.0.0.1 that answers the real Claude Code CLI with
 * scripted turns. See CLAUDE-HARNESS.md for the request shapes the CLI sends.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { type FakeServer, readBody, serveFake } from "./fake-server.ts";

/** One content block of a scripted assistant turn. */
export type Block =
  | { type: "text"; text: string }
  | { type: "tool_use"; name: string; input: Record<string, unknown>; id?: string };

/** One scripted assistant turn; several tool_use blocks form a parallel batch. */
export type Turn = Block[];

/**
 * What a request was: a scripted turn, a side request (title, quota...), another endpoint,
 * or an "escape": a request for another host that reached the fake acting as the run's
 * HTTP(S) proxy (refused, never forwarded).
 */
export type RequestKind = "turn" | "side" | "other" | "escape";

/** A request the fake received, with its body parsed as JSON when possible. */
export interface RecordedRequest {
  method: string;
  path: string;
  kind: RequestKind;
  /** For kind "turn": the script index answered (number of assistant messages in the request). */
  turn?: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

/** A Messages API request body, reduced to the fields the fake looks at. */
export interface MessagesBody {
  model?: string;
  max_tokens?: number;
  stream?: boolean;
  system?: unknown;
  tools?: unknown[];
  messages?: { role: string; content: unknown }[];
}

export type Script = Turn[] | ((req: RecordedRequest, index: number) => Turn);

/** `url` is the base for ANTHROPIC_BASE_URL. */
export type FakeAnthropic = FakeServer<RecordedRequest>;

/** Text sent when the script has no turn for the request's index. */
export const SCRIPT_EXHAUSTED = "(fake-anthropic: script exhausted)";

/**
 * Starts the fake on 127.0.0.1 with a random port.
 *
 * @example
 * const api = await startFakeAnthropic([
 *   [{ type: "tool_use", name: "Write", input: { file_path: "/tmp/x/a.txt", content: "hi" } }],
 *   [{ type: "text", text: "done" }],
 * ]);
 */
export async function startFakeAnthropic(script: Script): Promise<FakeAnthropic> {
  const requests: RecordedRequest[] = [];
  let nextId = 0;
  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      process.stderr.write(`fake-anthropic: ${String(error)}\n`);
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify(apiError("api_error", String(error))));
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    const recorded: RecordedRequest = {
      method: req.method ?? "GET",
      path,
      kind: "other",
      headers: req.headers,
      body: parseJson(raw),
    };
    requests.push(recorded);

    if (/^https?:\/\//.test(req.url ?? "")) {
      recorded.kind = "escape";
      recorded.path = req.url ?? "";
      sendJson(res, 403, apiError("permission_error", "fake-anthropic: no traffic off 127.0.0.1"));
      return;
    }
    if (recorded.method === "POST" && path === "/v1/messages") {
      const body = (recorded.body ?? {}) as MessagesBody;
      let turn: Turn;
      if (isSideRequest(body)) {
        recorded.kind = "side";
        turn = [{ type: "text", text: "ok" }];
      } else {
        recorded.kind = "turn";
        const index = countAssistantMessages(body);
        recorded.turn = index;
        turn = typeof script === "function" ? script(recorded, index) : pickTurn(script, index);
      }
      const ids = turn.map((block) =>
        block.type === "tool_use" ? (block.id ?? `toolu_fake_${++nextId}`) : "",
      );
      if (body.stream === true) streamTurn(res, body, turn, ids);
      else sendJson(res, 200, messageJson(body, turn, ids));
      return;
    }
    if (recorded.method === "POST" && path === "/v1/messages/count_tokens") {
      sendJson(res, 200, { input_tokens: 100 });
      return;
    }
    if (path.startsWith("/v1/") || path.startsWith("/api/")) {
      sendJson(res, 404, apiError("not_found_error", `fake-anthropic: no ${path}`));
      return;
    }
    sendJson(res, 200, {});
  }

  // As the run's proxy, the fake sees (and refuses) whatever tries to leave the machine.
  return serveFake(server, requests, (req) => ({
    method: "CONNECT",
    path: req.url ?? "",
    kind: "escape",
    headers: req.headers,
    body: undefined,
  }));
}

/**
 * True for requests that are not the agent loop: quota probes (`max_tokens: 1`) and
 * helper calls made without tools (titles, summaries, topic detection).
 */
export function isSideRequest(body: MessagesBody): boolean {
  if (body.max_tokens === 1) return true;
  return !Array.isArray(body.tools) || body.tools.length === 0;
}

/** The scripted turn index for a request: how many assistant messages it carries. */
export function countAssistantMessages(body: MessagesBody): number {
  return (body.messages ?? []).filter((m) => m.role === "assistant").length;
}

function pickTurn(script: Turn[], index: number): Turn {
  return script[index] ?? [{ type: "text", text: SCRIPT_EXHAUSTED }];
}

function streamTurn(res: ServerResponse, body: MessagesBody, turn: Turn, ids: string[]): void {
  res.writeHead(200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    connection: "keep-alive",
  });
  const send = (event: string, data: unknown) =>
    res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  const message = messageJson(body, [], ids);
  send("message_start", { type: "message_start", message: { ...message, stop_reason: null } });
  turn.forEach((block, index) => {
    if (block.type === "text") {
      send("content_block_start", {
        type: "content_block_start",
        index,
        content_block: { type: "text", text: "" },
      });
      send("content_block_delta", {
        type: "content_block_delta",
        index,
        delta: { type: "text_delta", text: block.text },
      });
    } else {
      send("content_block_start", {
        type: "content_block_start",
        index,
        content_block: { type: "tool_use", id: ids[index], name: block.name, input: {} },
      });
      for (const chunk of chunks(JSON.stringify(block.input), 40)) {
        send("content_block_delta", {
          type: "content_block_delta",
          index,
          delta: { type: "input_json_delta", partial_json: chunk },
        });
      }
    }
    send("content_block_stop", { type: "content_block_stop", index });
  });
  send("message_delta", {
    type: "message_delta",
    delta: { stop_reason: stopReason(turn), stop_sequence: null },
    usage: { output_tokens: 10 },
  });
  send("message_stop", { type: "message_stop" });
  res.end();
}

function messageJson(body: MessagesBody, turn: Turn, ids: string[]) {
  return {
    id: `msg_fake_${Date.now()}_${Math.random().toString(36).slice(2, 8)}`,
    type: "message",
    role: "assistant",
    model: body.model ?? "claude-fake",
    content: turn.map((block, index) =>
      block.type === "text"
        ? { type: "text", text: block.text }
        : { type: "tool_use", id: ids[index], name: block.name, input: block.input },
    ),
    stop_reason: stopReason(turn),
    stop_sequence: null,
    usage: {
      input_tokens: 100,
      output_tokens: 10,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
    },
  };
}

function stopReason(turn: Turn): "tool_use" | "end_turn" {
  return turn.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn";
}

function chunks(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out.length > 0 ? out : [""];
}

function apiError(type: string, message: string) {
  return { type: "error", error: { type, message } };
}

function sendJson(res: ServerResponse, status: number, data: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(data));
}

function parseJson(raw: string): unknown {
  if (raw === "") return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

export { conversationText, lastUserContent, textOf, toolResults } from "./request-text.ts";
