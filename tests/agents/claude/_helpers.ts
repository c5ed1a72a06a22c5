/** A temp git project with a cpilot config, and the built binary answering hook payloads. */
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cpilot, cpilotBinary, type Result, runtimeEnv } from "../../helpers/binary.ts";
import { tempDir, writeFiles } from "../../helpers/tmp.ts";
import { spawnAndWait } from "../../support/run-cli.ts";

/** The built binary (scripts/build.ts renames a new one into place, so it never vanishes mid-run). */
export function binary(): string {
  return cpilotBinary();
}

/** Run the binary with a clean environment (the shared runner). */
export { cpilot };

/** Claude Code 2.1.330 sets this for its hooks; it tells cpilot PostToolBatch exists. */
export const CLAUDE_ENV = { AI_AGENT: "claude-code_2-1-330_cli" };

export interface Project {
  readonly dir: string;
  path(name: string): string;
  write(files: Record<string, string>): void;
  /** Run `cpilot hook claude` with `payload` on stdin (session, cwd filled in). */
  hook(payload: Record<string, unknown>, env?: Record<string, string>): Result & { json: unknown };
  /** The same, as a child process that runs concurrently with others. */
  hookAsync(
    payload: Record<string, unknown>,
    env?: Record<string, string>,
  ): Promise<Result & { json: unknown }>;
  remove(): void;
}

/** A fresh project whose callbacks.config.json holds `config`. */
export function makeProject(config: unknown, files: Record<string, string> = {}): Project {
  const dir = tempDir("cpilot-claude-", { git: true });
  writeFileSync(join(dir, "callbacks.config.json"), JSON.stringify(config, null, 2));
  writeFiles(dir, files);
  const fill = (payload: Record<string, unknown>) => ({ session_id: "s1", cwd: dir, ...payload });
  return {
    dir,
    path: (name) => join(dir, name),
    write: (more) => writeFiles(dir, more),
    hook(payload, env = CLAUDE_ENV) {
      const r = cpilot(["hook", "claude"], { cwd: dir, env, input: JSON.stringify(fill(payload)) });
      return { ...r, json: parse(r.stdout) };
    },
    hookAsync(payload, env = CLAUDE_ENV) {
      return runAsync(["hook", "claude"], dir, env, JSON.stringify(fill(payload)));
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

function parse(stdout: string): unknown {
  return stdout.trim() === "" ? null : JSON.parse(stdout);
}

/** Run the binary without blocking the test process (for concurrency tests). */
export function runAsync(
  args: string[],
  cwd: string,
  env: Record<string, string>,
  input: string,
): Promise<Result & { json: unknown }> {
  const base = { PATH: "/usr/local/bin:/usr/bin:/bin", HOME: process.env.HOME ?? "/root" };
  return spawnAndWait([binary(), ...args], {
    cwd,
    env: { ...base, ...runtimeEnv(), ...env },
    input,
  }).then((r) => ({ ...r, json: parse(r.stdout) }));
}

/** A PostToolUse payload for a Write of `file` (absolute). */
export function postWrite(file: string, id = "toolu_1"): Record<string, unknown> {
  return {
    hook_event_name: "PostToolUse",
    tool_name: "Write",
    tool_input: { file_path: file, content: "x" },
    tool_response: { type: "create", filePath: file },
    tool_use_id: id,
  };
}

/** A PostToolBatch payload for Writes of `files` (absolute). */
export function postBatch(files: string[]): Record<string, unknown> {
  return {
    hook_event_name: "PostToolBatch",
    tool_calls: files.map((f, i) => ({
      tool_name: "Write",
      tool_input: { file_path: f, content: "x" },
      tool_use_id: `toolu_${i + 1}`,
      tool_response: `File created successfully at: ${f}`,
    })),
  };
}

/** The additionalContext of a hookSpecificOutput reply, or "". */
export function contextOf(json: unknown): string {
  const out = (json as { hookSpecificOutput?: { additionalContext?: string } } | null)
    ?.hookSpecificOutput;
  return out?.additionalContext ?? "";
}

/**
 * What the model reads after a batch that wrote `file` (root-relative) in session s1: the
 * built binary answers Claude Code's PostToolBatch, with nothing on stderr.
 */
export function batchEndContext(root: string, file: string): string {
  const r = cpilot(["hook", "claude"], {
    cwd: root,
    env: { ...CLAUDE_ENV, HOME: process.env.HOME ?? "/root" },
    input: JSON.stringify({ session_id: "s1", cwd: root, ...postBatch([join(root, file)]) }),
  });
  if (r.stderr !== "") throw new Error(`cpilot hook claude wrote to stderr: ${r.stderr}`);
  return r.stdout.trim() === "" ? "" : contextOf(JSON.parse(r.stdout));
}
