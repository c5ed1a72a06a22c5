/**
 * Runs the pinned, real Claude Code CLI headless against a fake Messages API on 127.0.0.1.
 * Every run gets its own temp HOME / CLAUDE_CONFIG_DIR and a scrubbed environment.
 */
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { killMarked, RUN_MARKER } from "./_leftovers.ts";
import { isolate } from "./netns.ts";

/** The pinned CLI binary (devDependency @anthropic-ai/claude-code). */
export const CLAUDE_BIN = resolve(import.meta.dir, "../../node_modules/.bin/claude");

export interface RunClaudeOptions {
  /** Project dir the CLI runs in (hooks run here too). */
  cwd: string;
  prompt: string;
  /** Written to a temp file and passed with `--settings`. */
  settings?: Record<string, unknown>;
  /** Base URL of the fake API; must point at 127.0.0.1 or localhost. */
  apiUrl: string;
  /** Extra env; merged last but still checked for real keys and proxies. */
  env?: Record<string, string>;
  /** Kill the CLI's process group after this long. Default 60 s. */
  timeoutMs?: number;
  /** Extra CLI arguments appended after the standard ones. */
  args?: string[];
}

export interface ClaudeRun {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Parsed `--output-format stream-json` lines (non-JSON lines are skipped). */
  events: Record<string, unknown>[];
  durationMs: number;
  /** Processes of this run (hooks' children...) still alive after the CLI exited; all killed. */
  leftovers: number;
}

/** Thrown when the CLI exceeds its time limit; carries what it printed so far. */
export class ClaudeTimeoutError extends Error {
  constructor(
    message: string,
    readonly stdout: string,
    readonly stderr: string,
  ) {
    super(message);
    this.name = "ClaudeTimeoutError";
  }
}

const KILL_GRACE_MS = 2_000;

/** Env vars that would reach a real host or a real account if inherited. */
const SCRUBBED = /^(ANTHROPIC_|CLAUDE_|CLAUDECODE|AWS_|GOOGLE_|VERTEX_|OTEL_)|_PROXY$|^NO_PROXY$/i;

/**
 * Runs `claude -p <prompt>` with stream-json output and returns once it exits.
 *
 * @example
 * const run = await runClaude({ cwd: dir, prompt: "go", apiUrl: api.url, settings: { hooks } });
 * expect(run.exitCode).toBe(0);
 */
export async function runClaude(options: RunClaudeOptions): Promise<ClaudeRun> {
  assertLocalUrl(options.apiUrl);
  const home = await mkdtemp(join(tmpdir(), "cpilot-claude-home-"));
  try {
    const settingsPath = join(home, "settings.json");
    await writeFile(settingsPath, JSON.stringify(options.settings ?? {}, null, 2));
    const env = buildEnv(home, options.apiUrl, options.env ?? {});
    const args = [
      "-p",
      options.prompt,
      "--settings",
      settingsPath,
      "--output-format",
      "stream-json",
      "--verbose",
      "--dangerously-skip-permissions",
      "--no-session-persistence",
      ...(options.args ?? []),
    ];
    // no packet leaves the machine: a network namespace that reaches only the fake (netns.ts)
    const isolation = await isolate([CLAUDE_BIN, ...args], Number(new URL(options.apiUrl).port));
    try {
      return await spawnCli(
        isolation?.argv ?? [CLAUDE_BIN, ...args],
        options.cwd,
        env,
        options.timeoutMs ?? 60_000,
      );
    } finally {
      isolation?.close();
    }
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}

/** The full environment for one run: a minimal inherited base plus the offline settings. */
export function buildEnv(
  home: string,
  apiUrl: string,
  extra: Record<string, string>,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !SCRUBBED.test(key)) env[key] = value;
  }
  Object.assign(env, {
    HOME: home,
    CLAUDE_CONFIG_DIR: join(home, ".claude"),
    ANTHROPIC_API_KEY: "sk-ant-fake-offline-key",
    ANTHROPIC_BASE_URL: apiUrl,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_AUTOUPDATER: "1",
    DISABLE_TELEMETRY: "1",
    DISABLE_ERROR_REPORTING: "1",
    IS_SANDBOX: "1",
    // Tripwire: anything not for 127.0.0.1 goes to the fake as a proxy, which refuses and
    // records it (see FakeAnthropic.escapes). The CLI honours these (measured).
    HTTPS_PROXY: apiUrl,
    HTTP_PROXY: apiUrl,
    https_proxy: apiUrl,
    http_proxy: apiUrl,
    NO_PROXY: "127.0.0.1,localhost",
    no_proxy: "127.0.0.1,localhost",
  });
  Object.assign(env, extra);
  assertOffline(env);
  return env;
}

function isLocalUrl(url: string): boolean {
  try {
    const host = new URL(url).hostname;
    return host === "127.0.0.1" || host === "localhost";
  } catch {
    return false;
  }
}

function assertLocalUrl(url: string): void {
  if (!isLocalUrl(url)) {
    throw new Error(
      `Cannot run Claude Code against "${url}": only 127.0.0.1 is allowed\nhint: pass the url of startFakeAnthropic()`,
    );
  }
}

function assertOffline(env: Record<string, string>): void {
  assertLocalUrl(env.ANTHROPIC_BASE_URL ?? "");
  const key = env.ANTHROPIC_API_KEY ?? "";
  if (!key.startsWith("sk-ant-fake")) {
    throw new Error(
      `Cannot run Claude Code with ANTHROPIC_API_KEY "${key.slice(0, 12)}…": it looks real\nhint: leave the key to runClaude()`,
    );
  }
  for (const name of ["HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"]) {
    for (const key of [name, name.toLowerCase()]) {
      const value = env[key];
      if (value && !isLocalUrl(value)) {
        throw new Error(
          `Cannot run Claude Code with ${key}="${value}": traffic could leave 127.0.0.1\nhint: leave the proxy to runClaude()`,
        );
      }
    }
  }
  if (env.ANTHROPIC_AUTH_TOKEN) {
    throw new Error("Cannot run Claude Code with ANTHROPIC_AUTH_TOKEN set: it may be real");
  }
}

function spawnCli(
  argv: string[],
  cwd: string,
  env: Record<string, string>,
  timeoutMs: number,
): Promise<ClaudeRun> {
  const started = performance.now();
  const runId = randomUUID();
  return new Promise((resolvePromise, reject) => {
    const [command, ...args] = argv as [string, ...string[]];
    const child = spawn(command, args, {
      cwd,
      env: { ...env, [RUN_MARKER]: runId },
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    child.stdout.setEncoding("utf8").on("data", (part: string) => {
      stdout += part;
    });
    child.stderr.setEncoding("utf8").on("data", (part: string) => {
      stderr += part;
    });
    const killGroup = (signal: NodeJS.Signals) => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, signal);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
      }
    };
    let hardKill: ReturnType<typeof setTimeout> | undefined;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup("SIGTERM");
      hardKill = setTimeout(() => {
        killGroup("SIGKILL");
        killMarked(runId);
      }, KILL_GRACE_MS);
    }, timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(new Error(`Cannot start "${CLAUDE_BIN}": ${error.message}`, { cause: error }));
    });
    child.on("close", (exitCode, signal) => {
      clearTimeout(timer);
      if (hardKill !== undefined) clearTimeout(hardKill);
      // Hooks run in their own process groups: the run marker finds what they left behind.
      killGroup("SIGKILL");
      const leftovers = killMarked(runId);
      if (timedOut) {
        reject(
          new ClaudeTimeoutError(
            `Claude Code timed out after ${timeoutMs / 1000} s: sent SIGTERM, then SIGKILL after ${KILL_GRACE_MS / 1000} s\nstderr:\n${stderr}\nstdout (tail):\n${stdout.slice(-2000)}`,
            stdout,
            stderr,
          ),
        );
        return;
      }
      resolvePromise({
        exitCode,
        signal,
        stdout,
        stderr,
        events: parseEvents(stdout),
        durationMs: Math.round(performance.now() - started),
        leftovers,
      });
    });
  });
}

/** Parses newline-delimited JSON, skipping blank and non-JSON lines. */
export function parseEvents(stdout: string): Record<string, unknown>[] {
  const events: Record<string, unknown>[] = [];
  for (const line of stdout.split("\n")) {
    if (!line.trim().startsWith("{")) continue;
    try {
      events.push(JSON.parse(line) as Record<string, unknown>);
    } catch {
      // A partial line (killed mid-write) is not an event.
    }
  }
  return events;
}
