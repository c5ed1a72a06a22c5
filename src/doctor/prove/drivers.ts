/**
 * The agents whose real CLI `doctor --prove` can run against cpilot's model (the rest: hook
 * level). Not Codex CLI (0.169.0): it reads a project's .codex/ only in a project it trusts,
 * and ignores that trust given for one run (`-c projects."<dir>".trust_level`, seen), so the
 * throwaway project would have to be trusted in the person's own config.toml.
 */
import type { LiveDriver } from "./live-driver.ts";

const DRIVERS: Record<string, () => Promise<LiveDriver>> = {
  claude: async () => (await import("./drivers/claude.ts")).claudeDriver,
  gemini: async () => (await import("./drivers/gemini.ts")).geminiDriver,
  copilot: async () => (await import("./drivers/copilot.ts")).copilotDriver,
  opencode: async () => (await import("./drivers/opencode.ts")).opencodeDriver,
  qwen: async () => (await import("./drivers/qwen.ts")).qwenDriver,
};

export function liveDriver(agent: string): Promise<LiveDriver> | null {
  return DRIVERS[agent]?.() ?? null;
}
