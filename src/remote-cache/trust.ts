import type { Origin } from "../model/batch.ts";

/**
 * Variables an agent CLI sets for the commands it runs. Not a boundary (a command can drop
 * one; the boundary is a write token only trusted CI holds): they keep a developer's own
 * write setting from reaching the cache through the agent in their terminal.
 */
const AGENT_MARKERS = [
  "AI_AGENT",
  "CLAUDECODE",
  "GEMINI_CLI",
  "QWEN_CODE",
  "CODEX_SANDBOX",
  "CODEX_THREAD_ID",
  "OPENCODE",
  "CURSOR_AGENT",
  "CPILOT_SESSION_HOOKS",
] as const;

export function writeRefusal(
  writeAsked: boolean,
  surface: Origin["surface"],
  env: Readonly<Record<string, string | undefined>>,
): string | null {
  if (!writeAsked) return "CPILOT_REMOTE_CACHE_WRITE=1 is not set";
  // hooks, MCP tools and the watcher answer an agent: what an agent can steer never writes
  if (surface !== "check") return `cpilot ${surface} never writes to the remote cache`;
  const marker = AGENT_MARKERS.find((name) => (env[name] ?? "") !== "");
  if (marker !== undefined)
    return `an agent's session (${marker} is set) never writes to the remote cache`;
  return null;
}
