/** The fake Messages API on its own, spoken to over real HTTP (no CLI involved). */
import { afterEach, expect, test } from "bun:test";
import { request } from "node:http";
import { connect } from "node:net";
import { buildEnv, runClaude } from "./claude-cli.ts";
import {
  type FakeAnthropic,
  type RecordedRequest,
  SCRIPT_EXHAUSTED,
  startFakeAnthropic,
  textOf,
  toolResults,
} from "./fake-anthropic.ts";

let api: FakeAnthropic | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

const tools = [{ name: "Write", input_schema: { type: "object" } }];
const userTurn = { role: "user", content: "go" };

function post(path: string, body: unknown): Promise<Response> {
  return fetch(`${api!.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

/** Parses an SSE body into `[event, data]` pairs. */
async function sse(response: Response): Promise<[string, Record<string, unknown>][]> {
  const text = await response.text();
  return text
    .split("\n\n")
    .filter((frame) => frame.trim() !== "")
    .map((frame) => {
      const event = /^event: (.*)$/m.exec(frame)?.[1] ?? "";
      const data = /^data: (.*)$/m.exec(frame)?.[1] ?? "{}";
      return [event, JSON.parse(data) as Record<string, unknown>];
    });
}

test("streams a text + tool_use turn the way the Messages API does", async () => {
  const input = { file_path: "/tmp/x.ts", content: "a".repeat(100) };
  api = await startFakeAnthropic([
    [
      { type: "text", text: "hi" },
      { type: "tool_use", name: "Write", input },
    ],
  ]);
  const response = await post("/v1/messages", { stream: true, tools, messages: [userTurn] });
  expect(response.headers.get("content-type")).toBe("text/event-stream");
  const frames = await sse(response);

  expect([...new Set(frames.map(([event]) => event))]).toEqual([
    "message_start",
    "content_block_start",
    "content_block_delta",
    "content_block_stop",
    "message_delta",
    "message_stop",
  ]);
  const json = frames
    .map(([, data]) => data.delta as { type?: string; partial_json?: string } | undefined)
    .filter((delta) => delta?.type === "input_json_delta")
    .map((delta) => delta!.partial_json);
  expect(json.length).toBeGreaterThan(1);
  expect(JSON.parse(json.join(""))).toEqual(input);
  const messageDelta = frames.find(([event]) => event === "message_delta")![1];
  expect(messageDelta.delta).toMatchObject({ stop_reason: "tool_use" });
});

test("answers non-streaming requests with a whole message", async () => {
  api = await startFakeAnthropic([[{ type: "text", text: "plain" }]]);
  const body = await (await post("/v1/messages", { tools, messages: [userTurn] })).json();
  expect(body).toMatchObject({
    type: "message",
    role: "assistant",
    content: [{ type: "text", text: "plain" }],
    stop_reason: "end_turn",
  });
});

test("picks the turn by counting assistant messages; side requests use no turn", async () => {
  const seen: number[] = [];
  api = await startFakeAnthropic((_req: RecordedRequest, index: number) => {
    seen.push(index);
    return [{ type: "text", text: `turn ${index}` }];
  });
  const assistant = { role: "assistant", content: [{ type: "text", text: "x" }] };
  await post("/v1/messages", { tools, messages: [userTurn] });
  await post("/v1/messages", { tools, max_tokens: 1, messages: [userTurn] });
  await post("/v1/messages", { messages: [userTurn], model: "claude-haiku" });
  const third = await post("/v1/messages", {
    tools,
    messages: [userTurn, assistant, userTurn, assistant, userTurn],
  });

  expect(await third.json()).toMatchObject({ content: [{ text: "turn 2" }] });
  expect(seen).toEqual([0, 2]);
  expect(api.requests.map((r) => r.kind)).toEqual(["turn", "side", "side", "turn"]);
  expect(api.turns().map((r) => r.turn)).toEqual([0, 2]);
});

test("says so when the script runs out", async () => {
  api = await startFakeAnthropic([]);
  const body = await (await post("/v1/messages", { tools, messages: [userTurn] })).json();
  expect(body).toMatchObject({ content: [{ type: "text", text: SCRIPT_EXHAUSTED }] });
});

test("answers and records the other endpoints instead of hanging", async () => {
  api = await startFakeAnthropic([]);
  const count = await post("/v1/messages/count_tokens", { messages: [userTurn] });
  expect(await count.json()).toEqual({ input_tokens: 100 });
  expect((await fetch(`${api.url}/v1/unknown`)).status).toBe(404);
  expect((await fetch(`${api.url}/`)).status).toBe(200);
  expect(api.requests.map((r) => [r.method, r.path, r.kind])).toEqual([
    ["POST", "/v1/messages/count_tokens", "other"],
    ["GET", "/v1/unknown", "other"],
    ["GET", "/", "other"],
  ]);
});

test("as a proxy, refuses and records requests for other hosts", async () => {
  api = await startFakeAnthropic([]);
  const { port } = new URL(api.url);
  const reply = await new Promise<string>((resolve, reject) => {
    const socket = connect(Number(port), "127.0.0.1", () => {
      socket.write("CONNECT api.anthropic.com:443 HTTP/1.1\r\nHost: api.anthropic.com:443\r\n\r\n");
    });
    let data = "";
    socket.on("data", (part) => {
      data += part.toString();
    });
    socket.on("close", () => resolve(data));
    socket.on("error", reject);
  });
  expect(reply).toStartWith("HTTP/1.1 403");
  const plain = await new Promise<number>((resolve, reject) => {
    const req = request(
      { host: "127.0.0.1", port, path: "http://example.com/x", method: "GET" },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on("error", reject);
    req.end();
  });
  expect(plain).toBe(403);
  expect(api.escapes().map((r) => [r.method, r.path])).toEqual([
    ["CONNECT", "api.anthropic.com:443"],
    ["GET", "http://example.com/x"],
  ]);
});

test("textOf flattens tool results, text and system messages after the last assistant turn", () => {
  const req: RecordedRequest = {
    method: "POST",
    path: "/v1/messages",
    kind: "turn",
    headers: {},
    body: {
      messages: [
        { role: "user", content: "OLD-PROMPT" },
        { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "Write", input: {} }] },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "t1", content: "STRING-RESULT" },
            { type: "tool_result", tool_use_id: "t2", content: [{ type: "text", text: "NESTED" }] },
            { type: "text", text: "<system-reminder>REMINDER</system-reminder>" },
          ],
        },
        { role: "system", content: [{ type: "text", text: "HOOK-CONTEXT" }] },
      ],
    },
  };
  const text = textOf(req);
  for (const part of ["STRING-RESULT", "NESTED", "REMINDER", "HOOK-CONTEXT"]) {
    expect(text).toContain(part);
  }
  expect(text).not.toContain("OLD-PROMPT");
  expect(toolResults(req)).toHaveLength(2);
});

test("the CLI env drops inherited keys, replaces proxies and points at 127.0.0.1", () => {
  const saved = { ...process.env };
  Object.assign(process.env, {
    ANTHROPIC_API_KEY: "sk-ant-real",
    ANTHROPIC_AUTH_TOKEN: "tok",
    HTTPS_PROXY: "http://proxy:3128",
    http_proxy: "http://proxy:3128",
    CLAUDE_CODE_USE_BEDROCK: "1",
  });
  try {
    const env = buildEnv("/tmp/h", "http://127.0.0.1:1234", {});
    expect(env.ANTHROPIC_API_KEY).toStartWith("sk-ant-fake");
    expect(env.ANTHROPIC_BASE_URL).toBe("http://127.0.0.1:1234");
    // Inherited proxies are replaced by the fake itself (the tripwire).
    expect(env.HTTPS_PROXY).toBe("http://127.0.0.1:1234");
    expect(env.http_proxy).toBe("http://127.0.0.1:1234");
    expect(env.ANTHROPIC_AUTH_TOKEN).toBeUndefined();
    expect(env.CLAUDE_CODE_USE_BEDROCK).toBeUndefined();
    expect(() => buildEnv("/tmp/h", "http://127.0.0.1:1", { HTTPS_PROXY: "http://p" })).toThrow(
      "HTTPS_PROXY",
    );
  } finally {
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
    Object.assign(process.env, saved);
  }
});

test("refuses an API url that is not on this machine", async () => {
  await expect(
    runClaude({ cwd: "/tmp", prompt: "x", apiUrl: "https://api.anthropic.com" }),
  ).rejects.toThrow("only 127.0.0.1 is allowed");
});
