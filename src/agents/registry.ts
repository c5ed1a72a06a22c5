/**
 * Every agent cpilot drives, one line each. Adding an agent: its folder under src/agents/
 * with an `agent.ts` exporting its `Agent` (see ./contract.ts), and one line here. Nothing
 * outside src/agents/ imports an agent folder or names an agent; it asks this list.
 */
import { claude } from "./claude/agent.ts";
import { codex } from "./codex/agent.ts";
import type { Agent } from "./contract.ts";
import { copilot } from "./copilot/agent.ts";
import { cursor } from "./cursor/agent.ts";
import { gemini } from "./gemini/agent.ts";
import { opencode } from "./opencode/agent.ts";
import { qwen } from "./qwen/agent.ts";

/** In the order people see them (usage lines, doctor). */
export const AGENTS: readonly Agent[] = [claude, gemini, cursor, codex, opencode, copilot, qwen];

/** The agent called `name`, or undefined. */
export function agentNamed(name: string): Agent | undefined {
  return AGENTS.find((agent) => agent.name === name);
}

/** The agents' names, for usage lines and "cpilot knows ..." errors. */
export function agentNames(): string[] {
  return AGENTS.map((agent) => agent.name);
}

/** The agent a command starts, from its file name (`cursor-agent` is Cursor's CLI), or undefined. */
export function agentOfCommand(command: string): Agent | undefined {
  const name = command.split("/").pop()?.toLowerCase() ?? "";
  return AGENTS.find((agent) => agent.isCommand(name));
}
