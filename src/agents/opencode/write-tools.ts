/**
 * The OpenCode tools that write files, as the plugin and `cpilot hook opencode` both see
 * them: a call to one of these (or any call carrying a patch) gets the write gate's verdict,
 * and the plugin refuses it when no verdict comes.
 */
export const OPENCODE_WRITE_TOOLS = ["write", "edit", "multiedit", "patch", "apply_patch"] as const;

/** Longest the plugin waits for `cpilot hook opencode`, as Claude Code's default hook timeout. */
export const OPENCODE_HOOK_TIMEOUT_MS = 600_000;

/** OpenCode's tool that runs shell commands: what it changed is found by comparing the project's files. */
export const OPENCODE_SHELL_TOOLS: readonly string[] = ["bash"];
