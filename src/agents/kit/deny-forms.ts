/** The pre-write deny forms several agents share. */

/** Claude Code's PreToolUse deny, which Codex takes too. */
export function preToolUseDeny(reason: string): Record<string, unknown> {
  return {
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: "deny",
      permissionDecisionReason: reason,
    },
  };
}

/** `{decision: "deny", reason}`: Gemini CLI's BeforeTool and cpilot's opencode plugin. */
export function decisionDeny(reason: string): Record<string, unknown> {
  return { decision: "deny", reason };
}
