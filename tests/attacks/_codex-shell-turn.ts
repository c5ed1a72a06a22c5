/**
 * A Codex session's shell turn driven through `cpilot hook codex` payloads, for the attack
 * tests on shell edits: a committed project, the turn's start, a shell call's result as the
 * model would see it, and the stop.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { realpathSync } from "node:fs";
import { join } from "node:path";
import { type AgentProject, agentProject } from "../agents/gemini/_agent-project.ts";
import { runtimeEnv } from "../helpers/binary.ts";

/** A Codex project with `files` committed, under `config`. */
export function committedCodexProject(
  config: Record<string, unknown>,
  files: Record<string, string>,
): AgentProject {
  const project = agentProject("codex", config, files);
  git(project, "add", "-A");
  git(project, "commit", "-qm", "start");
  return project;
}

export function git(p: AgentProject, ...args: string[]): void {
  const r = spawnSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], {
    cwd: p.dir,
  });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
}

export const turnStarts = (p: AgentProject) =>
  p.hook({ hook_event_name: "UserPromptSubmit", prompt: "go" });

/** The shell call's result as the model would see it; `command`: what the shell ran; `at`: the agent's working folder when not the project's. */
export const afterShell = (p: AgentProject, command = "…", at: { cwd?: string } = {}) =>
  JSON.stringify(
    p.hook({
      hook_event_name: "PostToolUse",
      tool_name: "Bash",
      tool_input: { command },
      tool_use_id: "call_1",
      tool_response: "",
      ...at,
    }).json,
  );

export const stop = (p: AgentProject) =>
  JSON.stringify(p.hook({ hook_event_name: "Stop", stop_hook_active: false }).json);

/** The session's turn records, in the private folder the tests' cpilot runs with. */
export function privateRecords(p: AgentProject): string {
  const key = createHash("sha1").update(realpathSync(p.dir)).digest("hex").slice(0, 16);
  return join(runtimeEnv().CPILOT_RUNTIME_DIR as string, "turn-records", key, "s1");
}
