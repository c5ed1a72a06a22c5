import type { AgentConfig } from "./types.ts";

export interface AgentSettings {
  readonly maxStopBlocks: number;
  readonly announceCallbacks: boolean;
  readonly tailLines: number;
}

export const DEFAULT_AGENT_SETTINGS: AgentSettings = {
  maxStopBlocks: 3,
  announceCallbacks: true,
  tailLines: 15,
};

export function agentSettings(config: AgentConfig | undefined): AgentSettings {
  return {
    maxStopBlocks: config?.maxStopBlocks ?? DEFAULT_AGENT_SETTINGS.maxStopBlocks,
    announceCallbacks: config?.announceCallbacks ?? DEFAULT_AGENT_SETTINGS.announceCallbacks,
    tailLines: config?.tailLines ?? DEFAULT_AGENT_SETTINGS.tailLines,
  };
}
