/** Codex takes it too. */
export function preToolUseDeny(reason: string): Record<string, unknown> {
  return {
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: "deny",
      permissionDecisionReason: reason,
    },
  };
}

/** Gemini CLI's BeforeTool and cpilot's opencode plugin. */
export function decisionDeny(reason: string): Record<string, unknown> {
  return { decision: "deny", reason };
}
