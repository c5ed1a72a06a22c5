/**
 * The agents whose real CLI `doctor --prove` can run against cpilot's model (the rest: hook
 * level).
 */
import type { LiveDriver } from "./live-driver.ts";

const DRIVERS: Record<string, () => Promise<LiveDriver>> = {
  claude: async () => (await import("./drivers/claude.ts")).claudeDriver,
  gemini: async () => (await import("./drivers/gemini.ts")).geminiDriver,
  copilot: async () => (await import("./drivers/copilot.ts")).copilotDriver,
  opencode: async () => (await import("./drivers/opencode.ts")).opencodeDriver,
  codex: async () => (await import("./drivers/codex.ts")).codexDriver,
  qwen: async () => (await import("./drivers/qwen.ts")).qwenDriver,
};

export function liveDriver(agent: string): Promise<LiveDriver> | null {
  return DRIVERS[agent]?.() ?? null;
}
