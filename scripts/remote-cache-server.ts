// The real Turborepo remote cache server (the `turborepo-remote-cache` devDependency) on
// 127.0.0.1 with local storage: one way to start it, shared by the benchmark's remote case
// (./_bench-remote.ts) and the tests (tests/support/remote-cache-server.ts).
import { type ChildProcess, spawn } from "node:child_process";
import { resolve } from "node:path";

const CLI = resolve(import.meta.dir, "../node_modules/turborepo-remote-cache/dist/cli.js");

export interface RemoteCacheProcess {
  /** Where it listens: `http://127.0.0.1:<port>`. */
  readonly url: string;
  stop(): void;
}

/**
 * Start the server keeping its entries under `storage`, accepting `token`; `env` adds to (or
 * overrides) its environment. Rejects when it exits or has not said where it listens within
 * `timeoutMs`.
 */
export async function startRemoteCacheProcess(options: {
  storage: string;
  token: string;
  env?: Record<string, string>;
  timeoutMs?: number;
}): Promise<RemoteCacheProcess> {
  const child = spawn("node", [CLI], {
    env: {
      PATH: process.env.PATH ?? "",
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: "0",
      STORAGE_PROVIDER: "local",
      STORAGE_PATH: options.storage,
      STORAGE_PATH_USE_TMP_FOLDER: "false",
      TURBO_TOKEN: options.token,
      LOG_LEVEL: "info",
      ...options.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const url = await listeningUrl(child, options.timeoutMs ?? 100_000);
  return { url, stop: () => child.kill("SIGKILL") };
}

/** The URL the server prints once it listens (the port is its own choice: PORT=0). */
function listeningUrl(child: ChildProcess, timeoutMs: number): Promise<string> {
  return new Promise((ok, fail) => {
    let out = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      fail(
        new Error(
          `Cannot start turborepo-remote-cache: no answer in ${timeoutMs / 1000} s\n${out}`,
        ),
      );
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        ok(match[1] as string);
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.on("exit", (code) => {
      clearTimeout(timer);
      fail(new Error(`Cannot start turborepo-remote-cache: it exited (${code})\n${out}`));
    });
  });
}
