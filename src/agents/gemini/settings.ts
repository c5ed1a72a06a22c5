import type { ResolvedConfig } from "../../config/resolve.ts";
import type { GroupedHooks } from "../kit/grouped-hooks.ts";
import { isCpilotHookCommand } from "../kit/hook-command.ts";
import { GEMINI_EDIT_MATCHER, GEMINI_SHELL_TOOL } from "./tools.ts";

/** Milliseconds. */
export const GEMINI_DEFAULT_TIMEOUT_MS = 60_000;

/** In ms, not seconds: past the longest blocking callback with a minute to spare, never under the default. */
export function geminiHookTimeoutMs(config: ResolvedConfig | null): number {
  let longest = 0;
  for (const cb of config?.callbacks ?? [])
    if (cb.blocking) longest = Math.max(longest, cb.timeoutMs);
  return Math.max(GEMINI_DEFAULT_TIMEOUT_MS, longest + 60_000);
}

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
    AfterAgent: [
      { hooks: [{ type: "command", command, name: "cpilot-stop", timeout: timeoutMs }] },
    ],
  };
}

export const isGeminiCpilotCommand = (cmd: unknown): boolean => isCpilotHookCommand(cmd, "gemini");
