import type { Readable, Writable } from "node:stream";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { stopSessionRuns } from "../engine/running.ts";
import { randomHex } from "../platform/digest.ts";
import { VERSION } from "../version.ts";
import { Batcher } from "./batcher.ts";
import { reportExits } from "./exit-report.ts";
import { finishBatch } from "./finish-batch.ts";
import { instructions } from "./instructions.ts";
import { DEFAULT_PROGRESS_MS } from "./keep-alive.ts";
import { limitLines, MAX_MESSAGE_BYTES, type Oversize } from "./line-limit.ts";
import { Project, projectRoot } from "./project.ts";
import { SessionPause } from "./session-pause.ts";
import { guardStdout } from "./stdout-guard.ts";
import { createToolContext } from "./tool-context.ts";
import { registerCallbackList } from "./tools/callback-list.ts";
import { registerCallbackLogs } from "./tools/callback-logs.ts";
import { registerCallbackToggle } from "./tools/callback-toggle.ts";
import { registerCallbackUpsert } from "./tools/callback-upsert.ts";
import { registerContextUpdate } from "./tools/context-update.ts";
import { registerDeleteFile } from "./tools/delete-file.ts";
import { registerEditFile } from "./tools/edit-file.ts";
import { registerMultiEdit } from "./tools/multi-edit.ts";
import { registerReadFile } from "./tools/read-file.ts";
import { registerWriteFile } from "./tools/write-file.ts";

export const DEFAULT_BATCH_WINDOW_MS = 75;

export interface CpilotMcpOptions {
  /** The project is found from here. */
  readonly cwd: string;
  readonly config?: string;
  readonly batchWindowMs?: number;
  /** Default: a fresh id per server. */
  readonly session?: string;
  /** When the client asks. */
  readonly progressMs?: number;
  /** Stops every callback run (Ctrl-C, SIGTERM). */
  readonly signal?: AbortSignal;
}

export interface CpilotMcp {
  readonly server: McpServer;
  readonly project: Project;
  /** Abort `signal` first; queued edits end, background runs stop except `persist` ones, which are waited for. */
  drain(): Promise<void>;
}

/** Not yet connected. */
export async function createCpilotMcp(options: CpilotMcpOptions): Promise<CpilotMcp> {
  const project = new Project(projectRoot(options.cwd, options.config), options.config);
  const session = options.session ?? `mcp-${randomHex(4)}`;
  const signal = options.signal ?? new AbortController().signal;
  const server = new McpServer(
    { name: "cpilot", version: VERSION },
    { instructions: await instructions(project) },
  );
  const agent = (): string | undefined => server.server.getClientVersion()?.name;
  const background = new Set<Promise<void>>();
  const known = new Map<string, string>();
  const paused = new SessionPause();
  const windowMs = options.batchWindowMs ?? DEFAULT_BATCH_WINDOW_MS;
  const batcher = new Batcher({
    windowMs,
    maxWaitMs: Math.max(1000, windowMs * 10),
    finish: (writes) =>
      finishBatch(writes, {
        project,
        session,
        paused,
        agent,
        signal,
        known,
        track: (work) => {
          background.add(work);
          void work.finally(() => background.delete(work));
        },
      }),
  });
  const ctx = createToolContext({
    project,
    batcher,
    session,
    paused,
    agent,
    progressMs: options.progressMs ?? DEFAULT_PROGRESS_MS,
  });
  for (const register of [
    registerWriteFile,
    registerEditFile,
    registerMultiEdit,
    registerDeleteFile,
    registerReadFile,
    registerCallbackList,
    registerCallbackUpsert,
    registerCallbackToggle,
    registerCallbackLogs,
    registerContextUpdate,
  ]) {
    register(server, ctx);
  }
  return {
    server,
    project,
    drain: async () => {
      await batcher.idle();
      if (background.size > 0) await stopSessionRuns(project.root, session);
      while (background.size > 0) await Promise.allSettled([...background]);
    },
  };
}

/**
 * A JSON-RPC error for a line that is not a message (not JSON, or not JSON-RPC): the SDK
 * drops it and tells only `onerror`; the client is answered as JSON-RPC says (id null).
 */
function unreadableError(err: Error): JSONRPCMessage | null {
  const parse = err instanceof SyntaxError;
  if (!parse && err.name !== "ZodError") return null;
  return {
    jsonrpc: "2.0",
    id: null,
    error: {
      code: parse ? -32700 : -32600,
      message: parse
        ? "Cannot read the message: it is not JSON"
        : "Cannot read the message: it is not a JSON-RPC 2.0 message",
    },
  } as unknown as JSONRPCMessage;
}

/** A JSON-RPC error for a message too big to read, so the client's call fails instead of hanging. */
function oversizeError(oversize: Oversize): JSONRPCMessage {
  const mib = (n: number) => `${(n / (1024 * 1024)).toFixed(1)} MiB`;
  return {
    jsonrpc: "2.0",
    id: oversize.id,
    error: {
      code: -32600,
      message: `Cannot read the message: it is ${mib(oversize.bytes)}, over the ${mib(MAX_MESSAGE_BYTES)} limit for one message; nothing was done`,
    },
  } as unknown as JSONRPCMessage;
}

/**
 * Until the client closes stdin (or `signal` aborts); only protocol goes to stdout. When
 * the client goes away, running calls are stopped: nobody is left to read their results.
 */
export async function serveStdio(
  options: CpilotMcpOptions & { stdin?: Readable; stdout?: Writable },
): Promise<void> {
  const guard = options.stdout === undefined ? guardStdout() : null;
  const undoExitReport = reportExits();
  const stdin = options.stdin ?? process.stdin;
  const stop = new AbortController();
  const outer = options.signal;
  if (outer?.aborted) stop.abort();
  outer?.addEventListener("abort", () => stop.abort(), { once: true });
  const mcp = await createCpilotMcp({ ...options, signal: stop.signal });
  let transport: StdioServerTransport;
  const lines = limitLines(stdin, MAX_MESSAGE_BYTES, (oversize) => {
    process.stderr.write(
      `cpilot mcp: dropped a message of ${oversize.bytes} bytes (over ${MAX_MESSAGE_BYTES})\n`,
    );
    transport.send(oversizeError(oversize)).catch(() => undefined);
  });
  transport = new StdioServerTransport(lines, options.stdout ?? guard?.protocol, {
    maxBufferSize: MAX_MESSAGE_BYTES + 1024,
  });
  transport.onerror = (err) => {
    const reply = unreadableError(err);
    if (reply !== null) transport.send(reply).catch(() => undefined);
  };
  const closed = new Promise<void>((resolve) => {
    stdin.once("end", () => resolve());
    stdin.once("close", () => resolve());
    transport.onclose = () => resolve();
    stop.signal.addEventListener("abort", () => resolve(), { once: true });
  });
  try {
    await mcp.server.connect(transport);
    process.stderr.write(`cpilot mcp: serving ${mcp.project.root}\n`);
    await closed;
    stop.abort();
    await mcp.drain();
  } finally {
    await mcp.server.close().catch(() => undefined);
    // The transport paused only the line reader: let go of stdin itself, or its open
    // pipe keeps the process alive after a SIGTERM.
    stdin.unpipe(lines);
    stdin.pause();
    guard?.restore();
    undoExitReport();
  }
}
