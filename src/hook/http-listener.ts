// `cpilot run`'s hook listener for agents that can post hook events to a URL (Claude
// Code's `http` hook): answered by the process already running the session. 127.0.0.1
// only, and every call must carry the session's secret from the agent's environment.
import type * as NodeChildProcess from "node:child_process";
import type * as NodeCrypto from "node:crypto";
import { statSync } from "node:fs";
import type * as NodeHttp from "node:http";
import type * as NodeNet from "node:net";
import type { AddressInfo } from "node:net";
import { isAbsolute } from "node:path";
import { setConfigGuard } from "../config/load.ts";
import type { HookAgent } from "../model/hook.ts";
import { nodeBuiltin } from "../platform/builtin.ts";
import { withCallStop } from "../platform/process-stop.ts";
import { setHookConfigMode } from "./config.ts";
import { answerHookRequest, type Home, type HookResponse } from "./in-process.ts";
import { assertServable } from "./servable.ts";

export const SECRET_HEADER = "X-Cpilot-Hook-Secret";
export const SECRET_ENV = "CPILOT_HOOK_SECRET";
const MAX_BODY_BYTES = 64 * 1024 * 1024;

export interface HookListener {
  readonly url: string;
  readonly secret: string;
  addCallEnv(env: Readonly<Record<string, string>>): void;
  close(): Promise<void>;
}

export interface ListenerOptions {
  readonly agent: HookAgent;
  /** When the payload names no folder that exists. */
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** For the calls answered in a process. */
  readonly fallback: readonly string[];
}

/** What the listener cannot answer (busy, or a config that runs code) goes to the command hook. */
export async function startHookListener(options: ListenerOptions): Promise<HookListener> {
  const { createServer } = nodeBuiltin<typeof NodeHttp>("node:http");
  const { randomBytes, timingSafeEqual } = nodeBuiltin<typeof NodeCrypto>("node:crypto");
  const secret = randomBytes(32).toString("hex");
  const secretBytes = Buffer.from(secret);
  const path = `/hook/${options.agent.name}`;
  let callEnv: NodeJS.ProcessEnv = { ...options.env };
  let busy = false;
  let host = "";
  // A config whose loading runs code loads fresh each call: the listener keeps only plain data.
  setConfigGuard(assertServable);
  setHookConfigMode({ kind: "isolate" });
  const home: Home = { env: { ...process.env }, cwd: process.cwd(), umask: process.umask() };

  const server = createServer((req, res) => {
    const refuse = (status: number, text: string): void => {
      res.writeHead(status, { "content-type": "text/plain", connection: "close" });
      res.end(`${text}\n`);
      req.resume();
    };
    if (req.headers.host !== host) return refuse(403, "wrong host");
    if (req.url !== path) return refuse(404, "no such hook");
    if (req.method !== "POST") return refuse(405, "POST only");
    const given = req.headers[SECRET_HEADER.toLowerCase()];
    if (typeof given !== "string" || given === "") return refuse(401, "no secret");
    const givenBytes = Buffer.from(given);
    if (givenBytes.length !== secretBytes.length || !timingSafeEqual(givenBytes, secretBytes))
      return refuse(403, "wrong secret");
    const declared = Number(req.headers["content-length"] ?? 0);
    if (declared > MAX_BODY_BYTES) return refuse(413, "too large");
    const parts: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        refuse(413, "too large");
        req.destroy();
        return;
      }
      parts.push(chunk);
    });
    req.on("end", () => {
      if (size > MAX_BODY_BYTES) return;
      const body = Buffer.concat(parts).toString("utf8");
      // The agent gave the call up (Esc, its timeout): stop its runs, as when it kills a command
      // hook.
      const givenUp = new AbortController();
      let answered = false;
      res.once("close", () => {
        if (!answered) givenUp.abort(new Error("the hook call was stopped"));
      });
      answerCall(body, givenUp.signal).then(
        (json) => {
          answered = true;
          res.writeHead(200, { "content-type": "application/json" });
          res.end(json);
        },
        (err: unknown) => {
          answered = true;
          refuse(500, err instanceof Error ? err.message : String(err));
        },
      );
    });
  });

  const answerCall = async (body: string, givenUp: AbortSignal): Promise<string> => {
    const cwd = payloadCwd(body) ?? options.cwd;
    const env = callEnv;
    if (!busy) {
      busy = true;
      let response: HookResponse;
      try {
        response = await withCallStop(givenUp, () =>
          answerHookRequest(options.agent, { stdin: body, cwd, env, umask: home.umask }, home),
        );
      } catch (err) {
        response = { served: false, reason: err instanceof Error ? err.message : String(err) };
      } finally {
        busy = false;
      }
      if (response.served) return response.json === null ? "" : JSON.stringify(response.json);
    }
    const [command, ...args] = options.fallback as [string, ...string[]];
    return (await commandHook(command, args, { cwd, env, input: body })).trim();
  };

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  host = `127.0.0.1:${port}`;
  // Bound is not reachable: with loopback down every call would fail silently.
  try {
    await connectOnce(port);
  } catch (err) {
    server.close();
    throw new Error(`it listens but cannot be reached (${(err as Error).message})`);
  }
  return {
    url: `http://${host}${path}`,
    secret,
    addCallEnv(env) {
      callEnv = { ...callEnv, ...env };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections?.();
      }),
  };
}

/** Only when it names a folder that exists. */
function payloadCwd(body: string): string | undefined {
  try {
    const cwd = (JSON.parse(body) as { cwd?: unknown }).cwd;
    return typeof cwd === "string" && isAbsolute(cwd) && statSync(cwd).isDirectory()
      ? cwd
      : undefined;
  } catch {
    return undefined;
  }
}

function commandHook(
  command: string,
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; input: string },
): Promise<string> {
  const { spawn } = nodeBuiltin<typeof NodeChildProcess>("node:child_process");
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ["pipe", "pipe", "ignore"],
    });
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (part: string) => {
      out += part;
    });
    child.on("error", reject);
    child.on("close", () => resolve(out));
    child.stdin.on("error", () => {});
    child.stdin.end(options.input);
  });
}

/** Fails within a second. */
function connectOnce(port: number): Promise<void> {
  const { connect } = nodeBuiltin<typeof NodeNet>("node:net");
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error("no answer within 1 s"));
    }, 1000);
    socket.once("connect", () => {
      clearTimeout(timer);
      socket.destroy();
      resolve();
    });
    socket.once("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
}
