/**
 * How `doctor --prove` runs one agent's real CLI headless against the scripted model,
 * without touching the person's settings.
 */
import type { ApiShape, RecordedBody } from "./model/server.ts";

export interface LiveRun {
  readonly args: readonly string[];
  readonly env: NodeJS.ProcessEnv;
}

export interface LiveDriver {
  readonly shape: ApiShape;
  /** null when `--version` fails. */
  version(bin: string, env: NodeJS.ProcessEnv): string | null;
  run(request: {
    prompt: string;
    /** The person's project, which the throwaway one stands for (its trust, for one). */
    root: string;
    home: string;
    project: string;
    modelUrl: string;
    env: NodeJS.ProcessEnv;
    scratch: string;
  }): LiveRun;
  /** The text the model was given after its `turn`-th answer (0-based); null when never asked again. */
  receivedAfter(requests: readonly RecordedBody[], turn: number): string | null;
  /**
   * Copies the project settings that decide whether and how hooks run into the throwaway
   * project, but not their hooks (they may name files of that project). Returns the files copied.
   */
  copyProjectSettings?(root: string, project: string): string[];
  /** An environment of the proof's own instead of the person's (Codex: a copy of its home). */
  substitute?(request: {
    root: string;
    home: string;
    env: NodeJS.ProcessEnv;
    scratch: string;
    bin: string;
  }): { env: NodeJS.ProcessEnv; notes: string[] };
  /** Only where `substitute` keeps that trust off the person's files. */
  readonly installTrustsProject?: boolean;
  /** Settings on this machine that keep the agent from running hooks, each with its file. */
  hookSwitches?(root: string, home: string, env: NodeJS.ProcessEnv): string[];
  /** Why the agent would not trust the person's project; only --prove reports it. */
  untrusted?(root: string, home: string, env: NodeJS.ProcessEnv): string[];
}

/** Whatever the agent sends to another host reaches the model server, which refuses it: nothing leaves 127.0.0.1. */
export function proxyTo(modelUrl: string): NodeJS.ProcessEnv {
  return {
    HTTPS_PROXY: modelUrl,
    HTTP_PROXY: modelUrl,
    https_proxy: modelUrl,
    http_proxy: modelUrl,
    NO_PROXY: "127.0.0.1,localhost",
    no_proxy: "127.0.0.1,localhost",
  };
}
