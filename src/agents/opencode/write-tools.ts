/** As the plugin and `cpilot hook opencode` both see them: the plugin refuses a call to one that gets no verdict. */
export const OPENCODE_WRITE_TOOLS = ["write", "edit", "multiedit", "patch", "apply_patch"] as const;

/** Longest the plugin waits for `cpilot hook opencode`, as Claude Code's default hook timeout. */
export const OPENCODE_HOOK_TIMEOUT_MS = 600_000;

/** What it changed is found by comparing the project's files. */
export const OPENCODE_SHELL_TOOLS: readonly string[] = ["bash"];
