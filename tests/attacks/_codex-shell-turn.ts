/**
 * A Codex session's shell turn driven through `cpilot hook codex` payloads, for the attack
 * tests on shell edits: a committed project, the turn's start, a shell call's result as the
 * model would see it, and the stop.
 */
import { spawnSync } from "node:child_process";
import { type AgentProject, agentProject } from "../agents/gemini/_agent-project.ts";

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

/** The shell call's result as the model would see it; `at`: the agent's working folder when not the project's. */
export const afterShell = (p: AgentProject, at: { cwd?: string } = {}) =>
  JSON.stringify(
    p.hook({
      hook_event_name: "PostToolUse",
      tool_name: "Bash",
      tool_input: { command: "…" },
      tool_use_id: "call_1",
      tool_response: "",
      ...at,
    }).json,
  );

export const stop = (p: AgentProject) =>
  JSON.stringify(p.hook({ hook_event_name: "Stop", stop_hook_active: false }).json);
