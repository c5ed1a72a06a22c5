/** `cpilot hook <agent>`: the one command an agent's hook config calls. Protocol on stdout only. */
import { basename } from "node:path";
import type { Agent, HookHandler } from "../agents/contract.ts";
import type { HookReply } from "../agents/kit/hook-reply.ts";
import { shadowedBySession } from "../agents/kit/session-hooks.ts";
import { AGENT_NAMES, loadAgent } from "../agents/registry.ts";
import { hookServerWanted, socketPath } from "../hook-server/address.ts";
import { bun, type BunStdinReader as ChunkReader } from "../platform/bun.ts";
import { dieWithParent } from "../platform/parent-death.ts";
import { processStop } from "../platform/process-stop.ts";
import { runtimeDir } from "../platform/runtime-dir.ts";
import { isCompiledBinary } from "../platform/self-command.ts";
import { isTerminal, keepStdoutForProtocol, writeFd } from "../platform/stdio.ts";
import { CpilotError } from "../util/errors.ts";
import { decodeBytes } from "../util/path-bytes.ts";
import { mark } from "../util/trace.ts";
import { ISOLATED_ENV } from "./hook-isolated-env.ts";

const usage = (): string =>
  `cpilot hook ${AGENT_NAMES.join("|")}   (reads the hook event JSON on stdin; the agent calls it)`;

/**
 * Payloads past this (a Write of a multi-megabyte file) are answered in-process: copying
 * them through the socket costs more than the server saves (~5 ms).
 */
const SERVER_MAX_PAYLOAD = 1024 * 1024;

/** The hidden command line of a hook server: `cpilot hook --serve <socket>`. */
const SERVE_FLAG = "--serve";

/** Longest wait for the agent to send and close stdin; a hook must never hang. */
export const STDIN_TIMEOUT_MS = 10_000;

/** `CPILOT_HOOK_STDIN_TIMEOUT_MS` overrides the wait (tests, very slow machines). */
function stdinTimeout(): number {
  const ms = Number(process.env.CPILOT_HOOK_STDIN_TIMEOUT_MS);
  return Number.isFinite(ms) && ms > 0 ? ms : STDIN_TIMEOUT_MS;
}

/** Hook payloads are JSON with file contents in them; past this something is wrong. */
const MAX_STDIN_BYTES = 64 * 1024 * 1024;

/** What the sniffing of an unreadable input keeps: the event name comes before the tool input. */
const KEPT_PREFIX = 1024 * 1024;

/**
 * Read all of stdin, or give up after `timeoutMs` or `MAX_STDIN_BYTES` (complete: false,
 * with `problem` and the start of what arrived, for the event name).
 */
export async function readStdin(
  timeoutMs = stdinTimeout(),
): Promise<{ text: string; complete: boolean; problem?: string }> {
  if (isTerminal(0)) return { text: "", complete: false };
  const reader = stdinReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<"timeout" | "stopped">((resolvePromise) => {
    timer = setTimeout(() => resolvePromise("timeout"), timeoutMs);
    // SIGTERM (the agent's hook timeout) ends the wait too: the call is answered at once.
    if (processStop.aborted) resolvePromise("stopped");
    else processStop.addEventListener("abort", () => resolvePromise("stopped"), { once: true });
  });
  const prefix = (): string => Buffer.concat(parts).subarray(0, KEPT_PREFIX).toString("utf8");
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), timeout]);
      if (next === "timeout" || next === "stopped" || size > MAX_STDIN_BYTES) {
        // Cancelling releases the pipe, so a writer that never closes cannot keep us alive.
        reader.cancel().catch(() => {});
        const problem =
          next === "timeout"
            ? `Cannot read the hook input: stdin did not close within ${timeoutMs / 1000} s`
            : next === "stopped"
              ? "Cannot read the hook input: the hook was stopped (SIGTERM) before it arrived"
              : `Cannot read the hook input: it is over ${MAX_STDIN_BYTES / 1024 / 1024} MiB`;
        return { text: prefix(), complete: false, problem };
      }
      if (next.done) break;
      if (size < KEPT_PREFIX || size + next.value.length <= MAX_STDIN_BYTES) parts.push(next.value);
      size += next.value.length;
    }
  } catch (err) {
    return {
      text: prefix(),
      complete: false,
      problem: `Cannot read the hook input: ${err instanceof Error ? err.message : String(err)}`,
    };
  } finally {
    clearTimeout(timer);
  }
  // bytes that are not UTF-8 (a file name) are kept, not made U+FFFD: see path-bytes.ts
  return { text: decodeBytes(Buffer.concat(parts)), complete: true };
}

/**
 * Bun's own stdin stream (about 1 ms to EOF, measured in the compiled binary) rather than
 * `process.stdin` (about 8 ms): this runs on every edit the agent makes.
 */
function stdinReader(): ChunkReader {
  if (bun) return bun.stdin.stream().getReader();
  const streams = ReadableStream as unknown as { from(it: AsyncIterable<Uint8Array>): unknown };
  return (streams.from(process.stdin) as { getReader(): ChunkReader }).getReader();
}

/**
 * Answer one hook call. Always exits 0 with protocol JSON (or nothing) on stdout: Claude
 * Code drops exit 1 silently, and exit 2 in PostToolBatch ends the agent's loop.
 */
export async function hookCommand(args: string[], ctx: { cwd: string }): Promise<number> {
  // The agent parses stdout: a config's or a callback's console.log must not land there.
  keepStdoutForProtocol();
  // A child that loads a config for its parent (below) ends with it, whatever that code does.
  await dieWithParent();
  const [agent, ...rest] = args;
  if (agent === SERVE_FLAG) {
    const socket = rest[0];
    if (socket === undefined)
      throw new CpilotError("Cannot serve hooks: no socket path", { hint: usage() });
    const { serveHooks, logServerProblem } = await import("../hook-server/server.ts");
    try {
      await serveHooks({ socket });
    } catch (err) {
      logServerProblem(socket, `cannot serve: ${err instanceof Error ? err.message : String(err)}`);
      return 1;
    }
    return 0;
  }
  // A config's trial load for `cpilot mcp` and `cpilot check` (src/config/load-probe.ts).
  if (agent === "--load-config") {
    const { answerProbe } = await import("../config/load-probe.ts");
    return answered(await answerProbe(rest[0]));
  }
  if (agent === "--background") {
    const spec = rest[0];
    if (spec === undefined)
      throw new CpilotError("Cannot run in background: no spec file", { hint: usage() });
    const { runBackground } = await import("../agent-session/background-run.ts");
    await runBackground(spec);
    return 0;
  }
  const target = agent === undefined ? undefined : await loadAgent(agent);
  if (target === undefined) {
    throw new CpilotError(
      `Cannot answer hooks for "${agent ?? ""}": cpilot knows ${AGENT_NAMES.join(", ")}`,
      { hint: `usage: ${usage()}` },
    );
  }
  // The isolated child of a hook call (./hook-isolated.ts): it answers its parent only.
  const nonce = process.env[ISOLATED_ENV];
  if (nonce !== undefined) {
    delete process.env[ISOLATED_ENV]; // not for the config's code or the callbacks
    return answered(await answerAsChild(target, nonce, await target.hook(), ctx));
  }
  if (shadowedBySession(target.name, rest, process.env)) {
    await readStdin(); // the agent is writing it: take it, then say nothing
    return answered(emit({ json: target.emptyJson }));
  }
  // The connection to a hook server is made while stdin is read.
  const server = serverSocket();
  const connection =
    server === null ? null : (await import("../hook-server/client.ts")).connectHookServer(server);
  const { text, complete, problem } = await readStdin();
  mark("hook input read");
  if (!complete) {
    connection?.close();
    if (text === "" && isTerminal(0)) {
      writeFd(
        2,
        `cpilot: no hook input: this command reads the agent's hook JSON on stdin\nusage: ${usage()}\n`,
      );
      return 0;
    }
    // Unread input: a pre-write call (or one that may be) is denied in the agent's form.
    const { unreadableInputReply } = await import("../agents/kit/unreadable-input.ts");
    return emit(unreadableInputReply(target, text, problem ?? "Cannot read the hook input"));
  }
  const answerHere = async (): Promise<number> => {
    const reply = await answerInProcess(target, text, await target.hook(), ctx);
    mark("hook answered");
    return emit(reply);
  };
  if (server === null || connection === null) return answered(await answerHere());
  if (text.length > SERVER_MAX_PAYLOAD) {
    connection.close();
    mark("hook server: payload too large to hand over");
    return answered(await answerHere());
  }
  // Stopped meanwhile (SIGTERM: the agent's hook timeout): hang up, which makes the server
  // stop the call's runs, and go.
  const stopped = new Promise<"stopped">((resolve) => {
    if (processStop.aborted) resolve("stopped");
    else processStop.addEventListener("abort", () => resolve("stopped"), { once: true });
  });
  const answer = await Promise.race([
    connection.ask({
      agent: target.name,
      stdin: text,
      cwd: ctx.cwd,
      env: process.env,
      umask: process.umask(),
    }),
    stopped,
  ]);
  if (answer === "stopped") {
    connection.close();
    // No verdict came: a pre-write call (or one that may be) is denied, never let through.
    const { mayBePreWrite, sniffEvent } = await import("../agents/kit/unreadable-input.ts");
    if (mayBePreWrite(target, sniffEvent(text))) {
      const why = "the hook was stopped (SIGTERM) before the hook server answered";
      const { gateUndecided } = await import("../agents/kit/messages.ts");
      emit({
        json: target.denyForm(gateUndecided(why)),
        stderr: `cpilot: ${why}`,
      });
    }
    return answered(0);
  }
  mark(answer.served ? "hook answered by the server" : `hook server: ${answer.reason}`);
  if (answer.served) return emit(answer);
  const code = await answerHere();
  // No server listens: start one for the next calls, once this one has its answer.
  if ("absent" in answer && answer.absent) {
    const { startHookServer } = await import("../hook-server/start.ts");
    startHookServer(server);
  }
  return answered(code);
}

/**
 * Answer here when that runs none of the user's code; a config that would run code
 * (ConfigNeedsIsolation) is loaded in a supervised child instead, and when that child
 * cannot answer, the call is answered here as for a broken config.
 */
async function answerInProcess(
  agent: Agent,
  text: string,
  handle: HookHandler,
  ctx: { cwd: string },
): Promise<HookReply> {
  const { setHookConfigMode, ConfigNeedsIsolation } = await import("../agents/kit/hook-config.ts");
  setHookConfigMode({ kind: "isolate" });
  try {
    return await handle(text, { cwd: ctx.cwd, env: process.env });
  } catch (err) {
    if (!(err instanceof ConfigNeedsIsolation)) throw err;
    const { answerIsolated } = await import("./hook-isolated.ts");
    mark("hook answered in a child: the config runs code");
    return answerIsolated(
      agent,
      text,
      { cwd: ctx.cwd, env: process.env, configName: basename(err.path) },
      async (message) => {
        setHookConfigMode({ kind: "failed", message });
        return handle(text, { cwd: ctx.cwd, env: process.env });
      },
    );
  }
}

/**
 * The child's side: load the config here (no isolation), tell the parent once it loaded
 * (and how long its gate plugins may take), then hand it the reply.
 */
async function answerAsChild(
  agent: Agent,
  nonce: string,
  handle: HookHandler,
  ctx: { cwd: string },
): Promise<number> {
  const { reportLine } = await import("./hook-isolated.ts");
  const { onHookConfigLoaded } = await import("../agents/kit/hook-config.ts");
  const { text, complete, problem } = await readStdin();
  const { mayBePreWrite, sniffEvent } = await import("../agents/kit/unreadable-input.ts");
  if (!complete) {
    const { unreadableInputReply } = await import("../agents/kit/unreadable-input.ts");
    const reply = unreadableInputReply(agent, text, problem ?? "Cannot read the hook input");
    writeFd(1, reportLine(nonce, { reply }));
    return 0;
  }
  const gateBudget = mayBePreWrite(agent, sniffEvent(text))
    ? await import("../gate/budget.ts")
    : null;
  onHookConfigLoaded((config) => {
    const gateBudgetMs = gateBudget?.gateBudgetMs(config.root, config.source.gate);
    writeFd(1, reportLine(nonce, { loaded: true, ...(gateBudgetMs ? { gateBudgetMs } : {}) }));
  });
  const reply = await handle(text, { cwd: ctx.cwd, env: process.env });
  writeFd(1, reportLine(nonce, { reply }));
  return 0;
}

/**
 * Exit as soon as the answer is out: a TypeScript callback that ignores its abort signal
 * (a timer, an open handle) must not keep the agent's hook waiting after the reply.
 */
function answered(code: number): never {
  process.exit(code);
}

/** Write a reply out: protocol JSON on stdout, text for people on stderr. */
function emit(reply: HookReply): number {
  if (reply.stderr) writeFd(2, `${reply.stderr}\n`);
  if (reply.json !== null) writeFd(1, `${JSON.stringify(reply.json)}\n`);
  return reply.exitCode ?? 0;
}

/** The socket of this binary's hook server when one is wanted here, else null. */
function serverSocket(): string | null {
  if (!hookServerWanted(process.env, isCompiledBinary())) return null;
  const dir = runtimeDir(process.env);
  return dir === null ? null : socketPath(dir);
}
