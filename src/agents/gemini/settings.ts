import type { ResolvedConfig } from "../../config/resolve.ts";
import type { GroupedHooks } from "../kit/grouped-hooks.ts";
import { isCpilotHookCommand } from "../kit/hook-command.ts";
import { GEMINI_EDIT_MATCHER, GEMINI_SHELL_TOOL } from "./tools.ts";

/** Gemini CLI's default hook timeout, milliseconds. */
export const GEMINI_DEFAULT_TIMEOUT_MS = 60_000;

/**
 * Milliseconds Gemini CLI gives each cpilot hook (its `timeout` is in ms, not seconds):
 * past the longest blocking callback with a minute to spare, never under the default.
 */
export function geminiHookTimeoutMs(config: ResolvedConfig | null): number {
  let longest = 0;
  for (const cb of config?.callbacks ?? [])
    if (cb.blocking) longest = Math.max(longest, cb.timeoutMs);
  return Math.max(GEMINI_DEFAULT_TIMEOUT_MS, longest + 60_000);
}

/**
 * cpilot's entries for `.gemini/settings.json`: the callbacks table and waiting results with
 * each prompt, the gate before edits, callbacks after, and the stop gate after each answer.
 */
export function geminiHooks(command: string, timeoutMs: number): GroupedHooks {
  const group = (name: string, matcher = GEMINI_EDIT_MATCHER) => ({
    matcher,
    hooks: [{ type: "command", command, name, timeout: timeoutMs }],
  });
  return {
    BeforeAgent: [
      { hooks: [{ type: "command", command, name: "cpilot-context", timeout: 10_000 }] },
    ],
    BeforeTool: [group("cpilot-gate")],
    // after the shell tool too: what a command changed is checked like an edit
    AfterTool: [group("cpilot-callbacks", `${GEMINI_EDIT_MATCHER}|${GEMINI_SHELL_TOOL}`)],
    // the stop gate: held while a check it was told about still fails
    AfterAgent: [
      { hooks: [{ type: "command", command, name: "cpilot-stop", timeout: timeoutMs }] },
    ],
  };
}

export const isGeminiCpilotCommand = (cmd: unknown): boolean => isCpilotHookCommand(cmd, "gemini");
