/** A temp git project and the compiled binary answering one agent's hook calls, for attacks on the gate. */
import { execFileSync, spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { cpilotBinary, runtimeEnv } from "../helpers/binary.ts";
import { tempDir, writeFiles } from "../helpers/tmp.ts";

export type Agent = "claude" | "codex" | "gemini" | "cursor";

export interface HookRun {
  code: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  json: Record<string, unknown> | null;
}

export interface AttackProject {
  readonly dir: string;
  path(name: string): string;
  /** Run `cpilot hook <agent>` with `stdin` (an object is sent as JSON). */
  hook(agent: Agent, stdin: unknown, options?: HookOptions): Promise<HookRun>;
  /** Run git in the project; throws when it fails. */
  git(...args: string[]): void;
}

export interface HookOptions {
  env?: Record<string, string>;
  /** Keep stdin open (never send EOF). */
  holdStdin?: boolean;
  /** Send this signal after `afterMs` (the agent's hook timeout). */
  signal?: { name: NodeJS.Signals; afterMs: number };
  /** Give up (SIGKILL) after this long: a hook that hangs fails the test instead of the run. */
  killAfterMs?: number;
}

/** A project with `files` (the config among them) in a fresh git repo. */
export function attackProject(files: Record<string, string>): AttackProject {
  const dir = tempDir("cpilot-attack-", { git: true });
  writeFiles(dir, files);
  return {
    dir,
    path: (name) => join(dir, name),
    hook: (agent, stdin, options = {}) => runHook(dir, agent, stdin, options),
    git: (...args) => {
      execFileSync("git", args, { cwd: dir, stdio: "pipe" });
    },
  };
}

function runHook(
  dir: string,
  agent: Agent,
  stdin: unknown,
  options: HookOptions,
): Promise<HookRun> {
  return new Promise((resolve) => {
    const child = spawn(cpilotBinary(), ["hook", agent], {
      cwd: dir,
      env: {
        PATH: "/usr/local/bin:/usr/bin:/bin",
        HOME: process.env.HOME ?? "/root",
        ...runtimeEnv(),
        ...options.env,
      },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString("utf8");
    });
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString("utf8");
    });
    child.stdin.on("error", () => {});
    if (typeof stdin === "string" || stdin instanceof Uint8Array) child.stdin.write(stdin);
    else child.stdin.write(JSON.stringify(stdin));
    if (!options.holdStdin) child.stdin.end();
    const timers: ReturnType<typeof setTimeout>[] = [];
    if (options.signal) {
      const { name, afterMs } = options.signal;
      timers.push(setTimeout(() => child.kill(name), afterMs));
    }
    timers.push(setTimeout(() => child.kill("SIGKILL"), options.killAfterMs ?? 60_000));
    child.on("close", (code, signal) => {
      for (const t of timers) clearTimeout(t);
      child.stdin.destroy();
      let json: Record<string, unknown> | null = null;
      try {
        json = stdout.trim() === "" ? null : (JSON.parse(stdout) as Record<string, unknown>);
      } catch {
        json = null;
      }
      resolve({ code, signal, stdout, stderr, json });
    });
  });
}

/** The pre-write payload of each agent for writing `path` (absolute or relative). */
export function preWrite(agent: Agent, dir: string, path: string, content = "x\n"): unknown {
  const base = { session_id: "attack", cwd: dir };
  switch (agent) {
    case "claude":
      return {
        ...base,
        permission_mode: "default",
        hook_event_name: "PreToolUse",
        tool_name: "Write",
        tool_input: { file_path: path, content },
      };
    case "codex":
      return {
        ...base,
        hook_event_name: "PreToolUse",
        tool_name: "apply_patch",
        tool_input: {
          command: [
            "*** Begin Patch",
            `*** Add File: ${path}`,
            `+${content.trimEnd()}`,
            "*** End Patch",
            "",
          ].join("\n"),
        },
      };
    case "gemini":
      return {
        ...base,
        hook_event_name: "BeforeTool",
        tool_name: "write_file",
        tool_input: { file_path: path, content },
      };
    case "cursor":
      return {
        ...base,
        hook_event_name: "preToolUse",
        tool_name: "Write",
        tool_input: { file_path: path, contents: content },
      };
  }
}

/**
 * Each agent's edit tool (a Codex patch) writing each of `paths`, and where the gate let the
 * write through: `[]` when every one was refused or asked.
 */
export async function allowedWrites(
  p: AttackProject,
  paths: readonly string[],
  agents: readonly Agent[] = ["claude", "codex", "cursor", "gemini"],
): Promise<string[]> {
  const allowed: string[] = [];
  for (const agent of agents)
    for (const path of paths)
      if (verdict(agent, await p.hook(agent, preWrite(agent, p.dir, path, "{}"))) === "allow")
        allowed.push(`${agent}: ${path}`);
  return allowed;
}

/** "deny", "ask", "allow" (a documented allow, or no decision at all) from an agent's reply. */
export function verdict(agent: Agent, run: HookRun): "deny" | "ask" | "allow" {
  if (run.code !== 0) return "allow"; // a crash or a kill decides nothing: the tool runs
  const json = run.json as Record<string, unknown> | null;
  if (json === null) return "allow";
  if (agent === "claude" || agent === "codex") {
    const out = json.hookSpecificOutput as Record<string, unknown> | undefined;
    const d = out?.permissionDecision;
    return d === "deny" ? "deny" : d === "ask" ? "ask" : "allow";
  }
  if (agent === "gemini") return json.decision === "deny" ? "deny" : "allow";
  return json.permission === "deny" ? "deny" : json.permission === "ask" ? "ask" : "allow";
}

/** The reason the agent shows the model, whatever the agent's shape. */
export function reasonOf(run: HookRun): string {
  const json = (run.json ?? {}) as Record<string, unknown>;
  const out = (json.hookSpecificOutput ?? {}) as Record<string, unknown>;
  return String(out.permissionDecisionReason ?? json.reason ?? json.agent_message ?? "");
}

export function writeConfig(dir: string, name: string, text: string): void {
  writeFileSync(join(dir, name), text);
}
