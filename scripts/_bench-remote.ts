// The remote case of the benchmark: the real Turborepo remote cache server (the
// `turborepo-remote-cache` devDependency) on 127.0.0.1, warmed by a check in the bench repo
// (standing for CI, writes on), and a fresh clone of it (standing for a teammate's laptop,
// reads only) whose `check --all` finds every result remotely.
import { type ChildProcess, spawn } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { gitIn } from "./_bench-repo.ts";

const CLI = resolve(import.meta.dir, "../node_modules/turborepo-remote-cache/dist/cli.js");

export interface BenchRemote {
  /** The environment a cpilot call needs to read the remote (add CPILOT_REMOTE_CACHE_WRITE=1 to write). */
  readonly env: Record<string, string>;
  stop(): void;
}

/** Start the server with its storage in a temp folder under `work`. */
export async function startBenchRemote(work: string): Promise<BenchRemote> {
  const storage = mkdtempSync(join(work, "remote-cache-"));
  const token = "bench-token";
  const child = spawn("node", [CLI], {
    env: {
      PATH: process.env.PATH ?? "",
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: "0",
      STORAGE_PROVIDER: "local",
      STORAGE_PATH: storage,
      STORAGE_PATH_USE_TMP_FOLDER: "false",
      TURBO_TOKEN: token,
      LOG_LEVEL: "info",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const url = await listening(child);
  return {
    env: {
      CPILOT_REMOTE_CACHE_URL: url,
      CPILOT_REMOTE_CACHE_TOKEN: token,
      CPILOT_REMOTE_CACHE_TEAM: "team_bench",
    },
    stop: () => {
      child.kill("SIGKILL");
      rmSync(storage, { recursive: true, force: true });
    },
  };
}

function listening(child: ChildProcess): Promise<string> {
  return new Promise((ok, fail) => {
    let out = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      fail(new Error(`Cannot start turborepo-remote-cache: no answer in 60 s\n${out}`));
    }, 60_000);
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

/**
 * A fresh clone of the bench repo `dir` in `into`, with `dir`'s current (uncommitted: the slow
 * job's) configs copied over, as a teammate's checkout of the same commit would hold them.
 */
export function freshClone(dir: string, into: string, configs: readonly string[]): string {
  rmSync(into, { recursive: true, force: true });
  gitIn(dir)("clone", "-q", "--no-hardlinks", dir, into);
  gitIn(into)("config", "core.hooksPath", "/dev/null");
  for (const name of configs) copyFileSync(join(dir, name), join(into, name));
  return into;
}
