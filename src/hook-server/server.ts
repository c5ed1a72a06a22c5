// `cpilot hook --serve SOCKET`: a warm process that answers hook calls for one user and one
// cpilot binary, so a call skips the runtime's cold start of cpilot's modules and its config.
// It answers one call at a time, in the caller's environment, working folder and umask, so
// a call sees what it would see in its own process; a call that arrives while another runs
// is handed back and answered by its own process, as are configs that must load fresh.
import { closeSync, openSync, renameSync, rmSync, statSync, writeSync } from "node:fs";
import { setHookConfigMode } from "../agents/kit/hook-config.ts";
import { setConfigGuard } from "../config/load.ts";
import { deferWorkAfterAnswers, runDeferredWork } from "../engine/deferred-work.ts";
import { type BunListener, type BunSocket, bun } from "../platform/bun.ts";
import { useLongLivedJit } from "../platform/jit.ts";
import { processStop, stopProcessRuns } from "../platform/process-stop.ts";
import { answerHookRequest } from "./answer.ts";
import { type HookRequest, type HookResponse, MESSAGE_END } from "./protocol.ts";
import { assertServable } from "./servable.ts";
import { startingMarker } from "./start.ts";

/** A server nobody called for this long exits. */
const DEFAULT_IDLE_MS = 10 * 60_000;
/** After this many calls a server exits: modules of edited configs pile up otherwise. */
const MAX_CALLS = 2000;
/** How often the server checks that its socket is still the one callers find. */
const CHECK_MS = 5000;
const END_BYTE = MESSAGE_END.charCodeAt(0);

interface ServerOptions {
  readonly socket: string;
  readonly idleMs?: number;
}

/** One caller's connection. */
interface Connection {
  readonly received: Uint8Array[];
  /** Its call arrived: later bytes are not another one. */
  called: boolean;
  /** Its call is being answered here (not one handed back at once). */
  answering: boolean;
  /** The answer, while it is being written; the rest goes out on each drain. */
  out: Uint8Array | null;
  sent: number;
}

/**
 * Serve until idle, replaced, or worn out. Resolves when the server has stopped listening
 * and the call under way, if any, has its answer. Bun's own sockets, not node:net: the
 * streams node:net builds around each connection cost the warm call about half a
 * millisecond (the server runs only as the compiled binary, on Bun).
 */
export async function serveHooks(options: ServerOptions): Promise<void> {
  if (bun === undefined) throw new Error("the hook server runs on Bun only");
  const runtime = bun;
  useLongLivedJit(); // warm code is the point of the server
  const idleMs = options.idleMs ?? envMs("CPILOT_HOOK_SERVER_IDLE_MS") ?? DEFAULT_IDLE_MS;
  setConfigGuard(assertServable);
  // A config whose loading runs code is loaded by the caller's supervised child, never here:
  // an endless loop in it would hang the server for every later call.
  setHookConfigMode({ kind: "isolate" });
  deferWorkAfterAnswers();
  const home = { env: { ...process.env }, cwd: process.cwd(), umask: process.umask() };
  const connections = new Map<BunSocket, Connection>();
  let busy = false;
  let calls = 0;
  let stopped = false;
  let idleTimer: ReturnType<typeof setTimeout> | undefined;
  let ownInode = -1;
  let finished: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    finished = resolve;
  });

  /** Once stopped, done when no call is under way (its runs stopped) and no answer is going out. */
  const finishIfIdle = (): void => {
    if (stopped && !busy && ![...connections.values()].some((c) => c.out !== null)) finished();
  };
  /** Write out what is left of the answer; end the connection once all of it is out. */
  const pump = (socket: BunSocket, conn: Connection): void => {
    if (conn.out === null) return;
    if (conn.sent < conn.out.length) {
      conn.sent += Math.max(0, socket.write(conn.out.subarray(conn.sent)));
    }
    if (conn.sent < conn.out.length) return;
    conn.out = null;
    socket.end();
    finishIfIdle();
  };
  const reply = (socket: BunSocket, conn: Connection, response: HookResponse): void => {
    conn.out = new TextEncoder().encode(JSON.stringify(response) + MESSAGE_END);
    conn.sent = 0;
    pump(socket, conn);
  };

  const answer = (socket: BunSocket, conn: Connection): void => {
    const text = Buffer.concat(conn.received).toString("utf8");
    conn.received.length = 0;
    const refuse = stopped ? "the server is stopping" : busy ? "busy with another call" : null;
    if (refuse !== null) {
      reply(socket, conn, { served: false, reason: refuse });
      return;
    }
    let request: HookRequest;
    try {
      request = JSON.parse(text.slice(0, text.indexOf(MESSAGE_END))) as HookRequest;
    } catch {
      reply(socket, conn, { served: false, reason: "the call is not JSON" });
      return;
    }
    busy = true;
    conn.answering = true;
    clearTimeout(idleTimer);
    answerHookRequest(request, home)
      .catch(
        (err: unknown): HookResponse => ({
          served: false,
          reason: err instanceof Error ? err.message : String(err),
        }),
      )
      .then((response) => {
        conn.answering = false;
        busy = false;
        calls++;
        // The caller hung up meanwhile: nobody to tell (the runs were stopped on close).
        if (connections.has(socket)) reply(socket, conn, response);
        runDeferredWork(); // the caller has its answer: now what it did not wait for
        if (calls >= MAX_CALLS) stop();
        else if (!stopped) armIdle();
        finishIfIdle();
      });
  };

  const handler = {
    open(socket: BunSocket): void {
      connections.set(socket, {
        received: [],
        called: false,
        answering: false,
        out: null,
        sent: 0,
      });
    },
    data(socket: BunSocket, chunk: Uint8Array): void {
      const conn = connections.get(socket);
      if (conn === undefined || conn.called) return;
      conn.received.push(new Uint8Array(chunk));
      if (!chunk.includes(END_BYTE)) return;
      conn.called = true;
      answer(socket, conn);
    },
    drain(socket: BunSocket): void {
      const conn = connections.get(socket);
      if (conn !== undefined) pump(socket, conn);
    },
    close(socket: BunSocket): void {
      const conn = connections.get(socket);
      connections.delete(socket);
      // The caller hung up before its answer (the agent stopped the hook): stop the call's
      // runs, as its own process would have on SIGTERM. The server stops with them.
      if (conn?.answering) stopProcessRuns(new Error("the hook call was stopped"));
      finishIfIdle();
    },
    error(): void {
      // close follows
    },
  };

  let listener: BunListener | null = null;
  let checker: ReturnType<typeof setInterval> | undefined;
  const stop = (): void => {
    if (stopped) return;
    stopped = true;
    clearTimeout(idleTimer);
    clearInterval(checker);
    // Only remove the socket if it is still ours: a newer server may have taken the name.
    if (inodeOf(options.socket) === ownInode) rmSync(options.socket, { force: true });
    listener?.stop();
    // Callers still reading their stdin answer themselves; the call under way gets its answer.
    for (const [socket, conn] of connections)
      if (!conn.answering && conn.out === null) socket.end();
    finishIfIdle();
  };
  const armIdle = (): void => {
    clearTimeout(idleTimer);
    idleTimer = setTimeout(() => {
      if (!busy) stop();
    }, idleMs);
  };

  // Listen on a private name, then rename into place: callers never see a half-made socket,
  // and two servers starting at once both work (the later name wins, the other idles out).
  const staging = `${options.socket}.${process.pid}.tmp`;
  rmSync(staging, { force: true });
  listener = runtime.listen({ unix: staging, socket: handler });
  renameSync(staging, options.socket);
  ownInode = inodeOf(options.socket);
  rmSync(startingMarker(options.socket), { force: true });
  checker = setInterval(() => {
    if (!busy && inodeOf(options.socket) !== ownInode) stop();
  }, CHECK_MS);
  checker.unref();
  armIdle();
  // SIGTERM/SIGINT (main.ts) stop the runs in flight; the server stops with them.
  processStop.addEventListener("abort", stop, { once: true });
  await done;
}

function inodeOf(path: string): number {
  try {
    return statSync(path).ino;
  } catch {
    return -1;
  }
}

function envMs(name: string): number | undefined {
  const n = Number(process.env[name]);
  return Number.isFinite(n) && n > 0 ? n : undefined;
}

/** Start-up problems go to a log beside the socket: the server has no terminal. */
export function logServerProblem(socket: string, text: string): void {
  try {
    const fd = openSync(`${socket}.log`, "a", 0o600);
    writeSync(fd, `${new Date().toISOString()} ${text}\n`);
    closeSync(fd);
  } catch {
    // nowhere left to say it
  }
}
