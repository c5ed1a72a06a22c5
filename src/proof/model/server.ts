/**
 * The scripted model of `doctor --prove`, recording every request body. It is also the
 * agent's proxy: a request for another host is refused and counted, so nothing leaves the
 * machine. Headers are never kept: they may carry the person's real credentials.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { listenOnLoopback, readBody } from "./loopback.ts";

export type ScriptStep = { write: string; content: string } | { done: string };

/** null when the request is not for this shape's path. */
export type ApiShape = (
  request: { method: string; path: string; body: unknown },
  script: readonly ScriptStep[],
  res: ServerResponse,
) => "turn" | "side" | null;

export interface RecordedBody {
  readonly path: string;
  readonly kind: "turn" | "side" | "other";
  readonly body: unknown;
}

export interface FakeModel {
  readonly url: string;
  readonly port: number;
  readonly requests: RecordedBody[];
  /** Requests for other hosts (refused). */
  readonly escapes: string[];
  close(): Promise<void>;
}

export async function startFakeModel(
  shape: ApiShape,
  script: readonly ScriptStep[],
): Promise<FakeModel> {
  const requests: RecordedBody[] = [];
  const escapes: string[] = [];
  const server = createServer((req, res) => {
    void answer(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: `cpilot proof model: ${String(error)}` } }));
    });
  });

  async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const url = req.url ?? "/";
    if (/^https?:\/\//.test(url)) {
      escapes.push(`${req.method ?? "GET"} ${url}`);
      sendJson(res, 403, { error: { message: "cpilot proof: no traffic off 127.0.0.1" } });
      return;
    }
    const path = url.split("?")[0] ?? "/";
    const body = parseJson(raw);
    const kind = shape({ method: req.method ?? "GET", path, body }, script, res);
    requests.push({ path, kind: kind ?? "other", body });
    if (kind === null) sendJson(res, 404, { error: { message: `cpilot proof model: no ${path}` } });
  }

  const listening = await listenOnLoopback(server, (req) =>
    escapes.push(`CONNECT ${req.url ?? ""}`),
  );
  return { ...listening, requests, escapes };
}

export function sendJson(res: ServerResponse, status: number, data: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(data));
}

export function sendEvents(
  res: ServerResponse,
  events: readonly { event?: string; data: unknown }[],
  /** A last `data:` line that is not JSON (Chat Completions' `[DONE]`). */
  last?: string,
): void {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  for (const e of events)
    res.write(`${e.event ? `event: ${e.event}\n` : ""}data: ${JSON.stringify(e.data)}\n\n`);
  if (last !== undefined) res.write(`data: ${last}\n\n`);
  res.end();
}

function parseJson(raw: string): unknown {
  if (raw === "") return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/** Labels of the API, not text the model reads. */
const LABELS = new Set([
  "role",
  "type",
  "id",
  "tool_use_id",
  "tool_call_id",
  "call_id",
  "name",
  "status",
]);

export function stringsIn(value: unknown): string {
  const out: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === "string") out.push(v);
    else if (Array.isArray(v)) for (const x of v) walk(x);
    else if (v !== null && typeof v === "object")
      for (const [k, x] of Object.entries(v)) if (!LABELS.has(k)) walk(x);
  };
  walk(value);
  return out.join("\n");
}
