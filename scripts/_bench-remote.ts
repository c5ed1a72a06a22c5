// The remote case of the benchmark: the real Turborepo remote cache server (the
// `turborepo-remote-cache` devDependency) on 127.0.0.1, warmed by a check in the bench repo
// (standing for CI, writes on), and a fresh clone of it (standing for a teammate's laptop,
// reads only) whose `check --all` finds every result remotely.
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { gitIn } from "./_bench-repo.ts";
import { startRemoteCacheProcess } from "./remote-cache-server.ts";

export interface BenchRemote {
  /** The environment a cpilot call needs to read the remote (add CPILOT_REMOTE_CACHE_WRITE=1 to write). */
  readonly env: Record<string, string>;
  stop(): void;
}

/** Start the server with its storage in a temp folder under `work`. */
export async function startBenchRemote(work: string): Promise<BenchRemote> {
  const storage = mkdtempSync(join(work, "remote-cache-"));
  const token = "bench-token";
  const server = await startRemoteCacheProcess({ storage, token, timeoutMs: 60_000 });
  return {
    env: {
      CPILOT_REMOTE_CACHE_URL: server.url,
      CPILOT_REMOTE_CACHE_TOKEN: token,
      CPILOT_REMOTE_CACHE_TEAM: "team_bench",
    },
    stop: () => {
      server.stop();
      rmSync(storage, { recursive: true, force: true });
    },
  };
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
