import { writeFileAtomic } from "../util/atomic-write.ts";
import { stateDir } from "../util/state-dir.ts";
import { readStateFile } from "../util/state-file.ts";
import { STATE, statePath } from "../util/state-layout.ts";
import type { ResolvedCallback } from "./resolve.ts";

/** Toggles live in `.cpilot/state.json`, not the config: pausing callbacks is no config change to review. */
export interface ToggleState {
  allDisabled: boolean;
  disabled: string[];
  /** Turned on here although the config says `enabled: false`. */
  enabled: string[];
}

const EMPTY: ToggleState = { allDisabled: false, disabled: [], enabled: [] };

function togglesPath(root: string): string {
  return statePath(root, STATE.toggles);
}

/** A missing or unreadable file means nothing is toggled. */
export function readToggles(root: string): ToggleState {
  try {
    const value = JSON.parse(readStateFile(togglesPath(root)) ?? "{}") as Partial<ToggleState>;
    return {
      allDisabled: value.allDisabled === true,
      disabled: Array.isArray(value.disabled)
        ? value.disabled.filter((n) => typeof n === "string")
        : [],
      enabled: Array.isArray(value.enabled)
        ? value.enabled.filter((n) => typeof n === "string")
        : [],
    };
  } catch {
    return { ...EMPTY, disabled: [], enabled: [] };
  }
}

export function writeToggles(root: string, state: ToggleState): void {
  stateDir(root);
  writeFileAtomic(togglesPath(root), `${JSON.stringify(state, null, 2)}\n`);
}

export function isActive(callback: ResolvedCallback, state: ToggleState): boolean {
  if (state.allDisabled) return false;
  if (state.disabled.includes(callback.name)) return false;
  if (state.enabled.includes(callback.name)) return true;
  return callback.enabled;
}
