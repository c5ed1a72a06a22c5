// `cpilot run`'s hook listener: an agent that can post its hook events to a URL (Claude
// Code's `http` hook type) has them answered here, by the process that already runs the
// session, so an edit costs no process. Only on 127.0.0.1, only for this session: every
// call must carry the session's secret, which the agent reads from its environment.
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

/** The header that carries the session's secret. */
export const SECRET_HEADER = "X-Cpilot-Hook-Secret";
/** The variable the agent reads the secret from (its hooks' headers name it). */
export const SECRET_ENV = "CPILOT_HOOK_SECRET";
/** As for a command hook's stdin: past this something is wrong. */
const MAX_BODY_BYTES = 64 * 1024 * 1024;

export interface HookListener {
  /** `http://127.0.0.1:<port>/hook/<agent>` */
  readonly url: string;
  readonly secret: string;
  /** Variables the agent sets for its hook commands, added to each call's environment. */
  addCallEnv(env: Readonly<Record<string, string>>): void;
  close(): Promise<void>;
}

export interface ListenerOptions {
  readonly agent: HookAgent;
  /** The folder a call runs in when its payload names none that exists. */
  readonly cwd: string;
  /** The environment the agent runs in: each call's, as for its command hook. */
  readonly env: NodeJS.ProcessEnv;
  /** The command line of the agent's command hook, for the calls answered in a process. */
  readonly fallback: readonly string[];
}

/**
 * Listen on 127.0.0.1, a port the system picks. A call the listener cannot answer here
 * (another is under way, or the config must load fresh because loading it runs code) is
 * answered by the agent's command hook in a process, exactly as without the listener.
 */
export async function startHookListener(options: ListenerOptions): Promise<HookListener> {
  const { createServer } = nodeBuiltin<typeof NodeHttp>("node:http");
  const { randomBytes, timingSafeEqual } = nodeBuiltin<typeof NodeCrypto>("node:crypto");
  const secret = randomBytes(32).toString("hex");
  const secretBytes = Buffer.from(secret);
  const path = `/hook/${options.agent.name}`;
  let callEnv: NodeJS.ProcessEnv = { ...options.env };
  let busy = false;
  let host = "";
  // A config whose loading runs code loads fresh, in a process: the listener keeps only plain data.
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
      // The agent gave the call up (the user pressed Esc, its timeout) before the answer:
      // stop the call's runs, as a command hook's runs stop when the agent kills it.
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

  /** The reply body: the command hook's stdout (JSON or nothing). */
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
  // Listening is not being reachable: in a network namespace whose loopback is down the
  // port binds, yet every call would fail, and the agent would drop the results silently.
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

/** The payload's `cwd` (Claude Code: the session's folder) when it names a folder that exists. */
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

/** The command hook's stdout for `input` on its stdin; its stderr goes where ours goes. */
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

/** Open and close one connection to 127.0.0.1:`port`, or fail within a second. */
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
