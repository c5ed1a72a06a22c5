// `cpilot hook --serve SOCKET`: a warm process that answers hook calls for one user and one
// cpilot binary, so a call skips the runtime's cold start of cpilot's modules and its config.
// It answers one call at a time, in the caller's environment, working folder and umask, so
// a call sees what it would see in its own process; a call that arrives while another runs
// is handed back and answered by its own process, as are configs that must load fresh.
import { closeSync, openSync, renameSync, rmSync, statSync, writeSync } from "node:fs";
import type * as NodeNet from "node:net";
import { setHookConfigMode } from "../agents/kit/hook-config.ts";
import { setConfigGuard } from "../config/load.ts";
import { nodeBuiltin } from "../platform/builtin.ts";
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

interface ServerOptions {
  readonly socket: string;
  readonly idleMs?: number;
}

/** Serve until idle, replaced, or worn out. Resolves when the server has stopped listening. */
export async function serveHooks(options: ServerOptions): Promise<void> {
  useLongLivedJit(); // warm code is the point of the server
  const { createServer } = nodeBuiltin<typeof NodeNet>("node:net");
  const idleMs = options.idleMs ?? envMs("CPILOT_HOOK_SERVER_IDLE_MS") ?? DEFAULT_IDLE_MS;
  setConfigGuard(assertServable);
  // A config whose loading runs code is loaded by the caller's supervised child, never here:
  // an endless loop in it would hang the server for every later call.
  setHookConfigMode({ kind: "isolate" });
  const home = { env: { ...process.env }, cwd: process.cwd(), umask: process.umask() };
  let busy = false;
  let calls = 0;
  let idleTimer: ReturnType<typeof setTimeout> | undefined;
  let ownInode = -1;

  const server = createServer((conn) => {
    const parts: Buffer[] = [];
    conn.on("error", () => {});
    conn.on("data", (chunk: Buffer) => {
      parts.push(chunk);
      if (!chunk.includes(MESSAGE_END)) return;
      conn.removeAllListeners("data");
      const line = Buffer.concat(parts).toString("utf8");
      const reply = (response: HookResponse): void => {
        conn.end(JSON.stringify(response) + MESSAGE_END);
      };
      if (busy) return reply({ served: false, reason: "busy with another call" });
      let request: HookRequest;
      try {
        request = JSON.parse(line.slice(0, line.indexOf(MESSAGE_END))) as HookRequest;
      } catch {
        return reply({ served: false, reason: "the call is not JSON" });
      }
      busy = true;
      clearTimeout(idleTimer);
      // The caller hung up before its answer (the agent stopped the hook): stop the call's
      // runs, as its own process would have on SIGTERM. The server stops with them.
      let answered = false;
      conn.once("close", () => {
        if (!answered) stopProcessRuns(new Error("the hook call was stopped"));
      });
      answerHookRequest(request, home)
        .finally(() => {
          answered = true;
        })
        .then(reply, (err: unknown) =>
          reply({ served: false, reason: err instanceof Error ? err.message : String(err) }),
        )
        .finally(() => {
          busy = false;
          calls++;
          if (calls >= MAX_CALLS) stop();
          else armIdle();
        });
    });
  });

  const stop = (): void => {
    clearTimeout(idleTimer);
    clearInterval(checker);
    // Only remove the socket if it is still ours: a newer server may have taken the name.
    if (inodeOf(options.socket) === ownInode) rmSync(options.socket, { force: true });
    server.close();
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
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(staging, () => resolve());
  });
  renameSync(staging, options.socket);
  ownInode = inodeOf(options.socket);
  rmSync(startingMarker(options.socket), { force: true });
  const checker = setInterval(() => {
    if (!busy && inodeOf(options.socket) !== ownInode) stop();
  }, CHECK_MS);
  checker.unref();
  armIdle();
  // SIGTERM/SIGINT (main.ts) stop the runs in flight; the server stops with them.
  processStop.addEventListener("abort", stop, { once: true });
  await new Promise<void>((resolve) => server.on("close", () => resolve()));
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
