/**
 * A server on 127.0.0.1 that refuses to tunnel: the fake model of `doctor --prove` and the
 * tests' fake APIs listen this way, so an agent that treats them as its proxy cannot reach
 * another host through them.
 */
import type { IncomingMessage, Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface Loopback {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

/**
 * Listen on a free port of 127.0.0.1. A CONNECT request (a tunnel to another host) is told
 * to `refused`, then answered 403.
 */
export async function listenOnLoopback(
  server: Server,
  refused: (req: IncomingMessage) => void,
): Promise<Loopback> {
  server.on("connect", (req: IncomingMessage, socket) => {
    refused(req);
    socket.end("HTTP/1.1 403 Forbidden\r\n\r\n");
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A request's body as UTF-8 text (whole, not cut inside a character). */
export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on("data", (part: Buffer) => parts.push(part));
    req.on("end", () => resolve(Buffer.concat(parts).toString("utf8")));
    req.on("error", reject);
  });
}
