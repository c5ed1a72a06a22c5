// The hook call's side: hand the call to a warm server over its socket, or say there is none.
import { type BunSocket, bun } from "../platform/bun.ts";
import { type HookRequest, type HookResponse, MESSAGE_END } from "./protocol.ts";

/** Why the server did not answer: no server listens, or it declined / went away mid-call. */
export type NotAnswered = {
  readonly served: false;
  readonly reason: string;
  /** True when no server listens at all (then the caller may start one). */
  readonly absent: boolean;
};

export interface ServerConnection {
  /** Send the call and wait for the answer, as long as the call takes. Never throws. */
  ask(request: HookRequest): Promise<HookResponse | NotAnswered>;
  /** Hang up without asking (the call turned out not to be one). */
  close(): void;
}

const END_BYTE = MESSAGE_END.charCodeAt(0);

const ABSENT: NotAnswered = { served: false, reason: "no server", absent: true };

/**
 * Start connecting to the server at `path` at once, so the connection is made while the
 * caller still reads its stdin. Bun only: the client must cost next to nothing, and Bun's
 * socket is the cheap one; elsewhere the caller answers itself.
 */
export function connectHookServer(path: string): ServerConnection {
  if (!bun) return { ask: async () => ({ ...ABSENT, reason: "not Bun" }), close() {} };
  const received: Uint8Array[] = [];
  let message: Uint8Array | null = null;
  let sent = 0;
  let settle: (value: HookResponse | NotAnswered) => void = () => {};
  const answer = new Promise<HookResponse | NotAnswered>((resolve) => {
    let settled = false;
    settle = (value) => {
      if (settled) return;
      settled = true;
      resolve(value);
    };
  });
  // A payload bigger than the socket buffer goes out in parts, the rest on each drain.
  const pump = (socket: BunSocket): void => {
    if (message !== null && sent < message.length) {
      sent += Math.max(0, socket.write(message.subarray(sent)));
    }
  };
  const decode = (): void => {
    const text = Buffer.concat(received).toString("utf8");
    const end = text.indexOf(MESSAGE_END);
    if (end < 0) {
      settle({ served: false, reason: "the server closed without answering", absent: false });
      return;
    }
    try {
      settle(JSON.parse(text.slice(0, end)) as HookResponse);
    } catch {
      settle({ served: false, reason: "the server's answer is not JSON", absent: false });
    }
  };
  const connected: Promise<BunSocket | null> = bun
    .connect({
      unix: path,
      socket: {
        drain: pump,
        // The answer is complete at its line's end: no need to wait for the server to hang up.
        data: (_socket, chunk) => {
          received.push(new Uint8Array(chunk));
          if (chunk.includes(END_BYTE)) decode();
        },
        close: decode,
        error: () => decode(),
        connectError: () => settle(ABSENT),
      },
    })
    .catch(() => {
      settle(ABSENT);
      return null;
    });
  return {
    async ask(request) {
      const socket = await connected;
      if (socket === null) return answer;
      message = new TextEncoder().encode(JSON.stringify(request) + MESSAGE_END);
      pump(socket);
      return answer;
    },
    close() {
      connected.then((socket) => socket?.end());
    },
  };
}
