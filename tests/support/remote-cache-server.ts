/**
 * The real Turborepo remote cache server (scripts/remote-cache-server.ts) with its storage in
 * a temp folder, and small servers that stand for a remote that is slow, down or answers
 * nonsense.
 */
import { spawn } from "node:child_process";
import { createServer, type Server, type Socket } from "node:net";
import { join } from "node:path";
import { startRemoteCacheProcess } from "../../scripts/remote-cache-server.ts";
import { tempDir } from "../helpers/tmp.ts";

export interface RemoteCacheServer {
  readonly url: string;
  readonly token: string;
  readonly team: string;
  /** The folder holding each entry as `<team>/<hash>` (and its signature as `<hash>.tag`). */
  readonly storage: string;
  entryPath(hash: string): string;
  stop(): void;
}

/**
 * Start the server; `storeTags` gives it a signature key of its own, without which it drops
 * the `x-artifact-tag` of what it stores (it never checks a tag: clients do).
 */
export async function startRemoteCacheServer(
  options: { storeTags?: boolean; team?: string } = {},
): Promise<RemoteCacheServer> {
  const storage = tempDir("cpilot-remote-cache-");
  const token = "test-token-1";
  const team = options.team ?? "team_cpilot";
  const server = await startRemoteCacheProcess({
    storage,
    token,
    ...(options.storeTags
      ? { env: { TURBO_REMOTE_CACHE_SIGNATURE_KEY: "server-side-unused" } }
      : {}),
  });
  return {
    url: server.url,
    token,
    team,
    storage,
    entryPath: (hash) => join(storage, team, hash),
    stop: () => server.stop(),
  };
}

/** A request a proxy passed on. */
export interface SeenRequest {
  readonly method: string;
  readonly path: string;
}

/**
 * A pass-through to `target` that records each request; with `batch`, it also answers the
 * batch query (`POST /v8/artifacts`), which the server above does not have, by asking the
 * server for each hash (or `exists`, quicker for many): it stands for a server that has one.
 */
export function recordingProxy(
  target: string,
  options: { batch?: boolean; exists?: (hash: string) => boolean } = {},
): { url: string; seen: SeenRequest[]; stop(): void } {
  const seen: SeenRequest[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const url = new URL(req.url);
      seen.push({ method: req.method, path: url.pathname });
      const auth = req.headers.get("authorization") ?? "";
      if (options.batch && req.method === "POST" && url.pathname === "/v8/artifacts") {
        const { hashes } = (await req.json()) as { hashes: string[] };
        const answer: Record<string, unknown> = {};
        for (const hash of hashes) {
          if (options.exists) {
            answer[hash] = options.exists(hash) ? { size: 1, taskDurationMs: 0 } : null;
            continue;
          }
          const head = await fetch(`${target}/v8/artifacts/${hash}${url.search}`, {
            method: "HEAD",
            headers: { authorization: auth },
          });
          answer[hash] = head.status === 200 ? { size: 1, taskDurationMs: 0 } : null;
        }
        return Response.json(answer);
      }
      const headers = new Headers(req.headers);
      headers.delete("host");
      const body =
        req.method === "GET" || req.method === "HEAD" ? undefined : await req.arrayBuffer();
      const res = await fetch(`${target}${url.pathname}${url.search}`, {
        method: req.method,
        headers,
        ...(body ? { body } : {}),
      });
      return new Response(req.method === "HEAD" ? null : await res.arrayBuffer(), {
        status: res.status,
        headers: res.headers,
      });
    },
  });
  return { url: `http://127.0.0.1:${server.port}`, seen, stop: () => server.stop(true) };
}

/** A TCP server that accepts connections and never answers: a remote too slow to wait for. */
export async function silentServer(): Promise<{
  url: string;
  connections: () => number;
  stop(): void;
}> {
  const sockets: Socket[] = [];
  const server: Server = createServer((socket) => {
    sockets.push(socket);
    socket.on("error", () => {});
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    connections: () => sockets.length,
    stop: () => {
      for (const s of sockets) s.destroy();
      server.close();
    },
  };
}

/** A port on 127.0.0.1 where nothing listens: a remote that is down. */
export async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((ok) => server.close(() => ok()));
  return `http://127.0.0.1:${port}`;
}

/** An HTTP server whose every answer is `answer(method, path)`: a remote that talks nonsense. */
export function nonsenseServer(answer: (method: string, path: string) => Response): {
  url: string;
  stop(): void;
} {
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: (req) => answer(req.method, new URL(req.url).pathname),
  });
  return { url: `http://127.0.0.1:${server.port}`, stop: () => server.stop(true) };
}

/**
 * The same as nonsenseServer, in a process of its own: for a test that waits on the binary
 * (spawnSync), during which a server in the test's own process cannot answer.
 */
export async function nonsenseProcess(
  status: number,
  body: string,
): Promise<{ url: string; stop(): void }> {
  const script = `const s = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response(${JSON.stringify(body)}, { status: ${status} }) }); console.log(s.port);`;
  const child = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "inherit"] });
  const port = await new Promise<string>((ok, fail) => {
    child.stdout?.once("data", (chunk: Buffer) => ok(chunk.toString().trim()));
    child.once("exit", (code) => fail(new Error(`the nonsense server exited (${code})`)));
  });
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill("SIGKILL") };
}
