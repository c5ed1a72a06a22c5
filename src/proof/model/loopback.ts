/**
 * A server on 127.0.0.1 that refuses to tunnel, so an agent that treats it as its proxy
 * cannot reach another host through it.
 */
import type { IncomingMessage, Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface Loopback {
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

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

/** Whole, so a character is never cut in two. */
export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on("data", (part: Buffer) => parts.push(part));
    req.on("end", () => resolve(Buffer.concat(parts).toString("utf8")));
    req.on("error", reject);
  });
}
