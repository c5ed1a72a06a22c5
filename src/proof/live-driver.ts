/**
 * What `doctor --prove` must know to run one agent's real CLI headless against cpilot's
 * scripted model: the API shape it speaks, how to point it at 127.0.0.1 without touching
 * the person's settings, and where in its requests the model reads what came after a write.
 */
import type { ApiShape, RecordedBody } from "./model/server.ts";

export interface LiveRun {
  readonly args: readonly string[];
  readonly env: NodeJS.ProcessEnv;
}

export interface LiveDriver {
  readonly shape: ApiShape;
  /** The CLI's version as it prints it; null when `--version` fails. */
  version(bin: string, env: NodeJS.ProcessEnv): string | null;
  /** One headless session in `project` on `modelUrl`; `scratch` is a temp folder for flag files. */
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
   * Copy into the throwaway project the settings of the person's project (`root`) that decide
   * whether and how hooks run, so their precedence is part of the proof; their own hooks stay
   * out (they may name files of that project). Returns the files copied, for the report.
   */
  copyProjectSettings?(root: string, project: string): string[];
  /**
   * An environment of the proof's own, in place of the person's, for the install and the run
   * (Codex: a copy of its home), with what it substituted, for the report.
   */
  substitute?(request: {
    root: string;
    home: string;
    env: NodeJS.ProcessEnv;
    scratch: string;
    bin: string;
  }): { env: NodeJS.ProcessEnv; notes: string[] };
  /** Install as `cpilot install <agent> --trust-project`: only where `substitute` keeps that trust off the person's files. */
  readonly installTrustsProject?: boolean;
  /** Settings on this machine that keep the agent from running hooks there, each with its file (plain `doctor` reports them too). */
  hookSwitches?(root: string, home: string, env: NodeJS.ProcessEnv): string[];
  /**
   * Why the agent would not trust the person's project (the proof's run trusts the throwaway
   * one only when it does). Only --prove reports it: plain `doctor` has the agents' own trust checks.
   */
  untrusted?(root: string, home: string, env: NodeJS.ProcessEnv): string[];
}

/**
 * Every proxy variable pointed at cpilot's model server, which refuses and counts requests
 * for other hosts: whatever the agent sends elsewhere never leaves 127.0.0.1.
 */
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
