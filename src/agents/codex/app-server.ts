/**
 * `codex app-server` (Codex's JSON-RPC API on stdio) lists which hooks Codex will run,
 * with their hash and trust, and records trust as Codex's hook review does, without
 * re-implementing its hashing. It needs no model and no network.
 */
import { spawn } from "node:child_process";

export interface CodexHookEntry {
  /** The key under `hooks.state`. */
  readonly key: string;
  readonly eventName: string;
  readonly command?: string;
  readonly sourcePath: string;
  readonly enabled: boolean;
  readonly currentHash: string;
  readonly trustStatus: "managed" | "untrusted" | "trusted" | "modified";
}

export interface CodexHookList {
  readonly hooks: readonly CodexHookEntry[];
  /** An untrusted project is one. */
  readonly warnings: readonly string[];
}

export interface AppServerSession {
  request(method: string, params: unknown): Promise<unknown>;
  readonly configWarnings: string[];
  close(): void;
}

const TIMEOUT_MS = 20_000;

/** null when it cannot start. */
export async function openAppServer(
  program: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<AppServerSession | null> {
  const child = spawn(program, ["app-server"], { cwd, env, stdio: ["pipe", "pipe", "ignore"] });
  const waiting = new Map<number, (reply: { result?: unknown; error?: unknown }) => void>();
  const configWarnings: string[] = [];
  let failed = false;
  const fail = (): void => {
    failed = true;
    for (const resolve of waiting.values()) resolve({ error: "codex app-server ended" });
    waiting.clear();
  };
  child.on("error", fail);
  child.on("close", fail);
  child.stdin.on("error", () => {});
  let buffer = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    buffer += chunk;
    for (let i = buffer.indexOf("\n"); i >= 0; i = buffer.indexOf("\n")) {
      const line = buffer.slice(0, i);
      buffer = buffer.slice(i + 1);
      let message: { id?: number; method?: string; params?: { summary?: string } };
      try {
        message = JSON.parse(line);
      } catch {
        continue;
      }
      if (message.method === "configWarning" && message.params?.summary)
        configWarnings.push(message.params.summary);
      if (typeof message.id === "number") {
        waiting.get(message.id)?.(message as { result?: unknown; error?: unknown });
        waiting.delete(message.id);
      }
    }
  });
  let next = 0;
  const timer = setTimeout(() => child.kill("SIGKILL"), TIMEOUT_MS);
  const session: AppServerSession = {
    configWarnings,
    request(method, params) {
      if (failed) return Promise.reject(new Error("codex app-server is not running"));
      const id = ++next;
      return new Promise((resolve, reject) => {
        waiting.set(id, (reply) =>
          reply.error === undefined
            ? resolve(reply.result)
            : reject(new Error(JSON.stringify(reply.error))),
        );
        child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
      });
    },
    close() {
      clearTimeout(timer);
      child.stdin.end();
      child.kill();
    },
  };
  try {
    await session.request("initialize", {
      clientInfo: { name: "cpilot", title: null, version: "1" },
      capabilities: null,
    });
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "initialized" })}\n`);
    return session;
  } catch {
    session.close();
    return null;
  }
}

export async function listHooks(session: AppServerSession, cwd: string): Promise<CodexHookList> {
  const result = (await session.request("hooks/list", { cwds: [cwd] })) as {
    data?: { hooks?: CodexHookEntry[]; warnings?: string[] }[];
  };
  const entry = result.data?.[0];
  return {
    hooks: entry?.hooks ?? [],
    warnings: [...(entry?.warnings ?? []), ...session.configWarnings],
  };
}

/** Through Codex itself, which keeps the file's other parts. */
export async function upsertUserConfig(
  session: AppServerSession,
  edits: readonly { keyPath: string; value: Record<string, unknown> }[],
): Promise<string> {
  const result = (await session.request("config/batchWrite", {
    edits: edits.map((edit) => ({ ...edit, mergeStrategy: "upsert" })),
  })) as { filePath?: string };
  return result.filePath ?? "config.toml";
}
