import type { HookReply } from "../agents/_shared/hook-reply.ts";

/** One agent's hook adapter: its hook JSON (stdin text) in, its protocol reply out. Never throws. */
export type HookHandler = (
  stdin: string,
  options: { cwd: string; env: NodeJS.ProcessEnv },
) => Promise<HookReply>;

/** One adapter per agent, loaded on demand. */
export const ADAPTERS: Record<string, () => Promise<HookHandler>> = {
  claude: async () => (await import("../agents/claude/handle.ts")).handleClaudeHook,
  gemini: async () => (await import("../agents/gemini/handle.ts")).handleGeminiHook,
  cursor: async () => (await import("../agents/cursor/handle.ts")).handleCursorHook,
  codex: async () => (await import("../agents/codex/handle.ts")).handleCodexHook,
  opencode: async () => (await import("../agents/opencode/handle.ts")).handleOpencodeHook,
};
