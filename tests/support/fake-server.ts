/**
 * What the fake model APIs (Chat Completions/Responses, Anthropic Messages, Gemini) share:
 * a server on 127.0.0.1 that records every request, and refuses a proxied request for
 * another host (CONNECT), recorded as an escape.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { listenOnLoopback, readBody } from "../../src/proof/model/loopback.ts";

export { readBody };

export interface FakeServer<R> {
  /** Base URL without a version: `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** Every request received, in order of arrival. */
  readonly requests: R[];
  /** Only the requests that were answered from the script (the agent loop), in order. */
  turns(): R[];
  /** Requests for other hosts (CONNECT through the proxy); should stay empty. */
  escapes(): R[];
  close(): Promise<void>;
}

/** A request's JSON body; null when it is empty or not JSON. */
export async function readJsonBody<T>(req: IncomingMessage): Promise<T | null> {
  const text = await readBody(req);
  try {
    return text === "" ? null : (JSON.parse(text) as T);
  } catch {
    return null;
  }
}

/** Listen on a free port of 127.0.0.1; `escaped` records a CONNECT request. */
export async function serveFake<R extends { readonly kind: string }>(
  server: Server,
  requests: R[],
  escaped: (req: IncomingMessage) => R,
): Promise<FakeServer<R>> {
  const listening = await listenOnLoopback(server, (req) => requests.push(escaped(req)));
  return {
    url: listening.url,
    requests,
    turns: () => requests.filter((r) => r.kind === "turn"),
    escapes: () => requests.filter((r) => r.kind === "escape"),
    close: listening.close,
  };
}

/** A request as the Chat Completions and Gemini fakes record it. */
export interface FakeRequest<B> {
  readonly method: string;
  readonly path: string;
  readonly kind: "turn" | "side" | "other" | "escape";
  /** The parsed JSON body (null when none). */
  readonly body: B | null;
}

/**
 * A fake whose `handle` answers the requests for it; a request for another host through the
 * proxy (an absolute URL, or CONNECT) is recorded as an escape and refused.
 */
export function startFake<B>(
  requests: FakeRequest<B>[],
  handle: (req: IncomingMessage, res: ServerResponse, url: string) => Promise<void>,
): Promise<FakeServer<FakeRequest<B>>> {
  const escaped = (req: IncomingMessage): FakeRequest<B> => ({
    method: req.method ?? "",
    path: req.url ?? "",
    kind: "escape",
    body: null,
  });
  const server = createServer(async (req, res) => {
    const url = req.url ?? "/";
    if (url.startsWith("http://") || url.startsWith("https://")) {
      requests.push(escaped(req));
      res.writeHead(403).end();
      return;
    }
    await handle(req, res, url);
  });
  return serveFake(server, requests, escaped);
}
