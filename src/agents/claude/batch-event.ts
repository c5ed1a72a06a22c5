import { existsSync, writeFileSync } from "node:fs";
import { stateDir } from "../../util/state-dir.ts";
import { STATE, statePath } from "../../util/state-layout.ts";

/**
 * Does this Claude Code send PostToolBatch (2.1.x does; 2.0.x does not)? When it does, the
 * once-per-batch callbacks wait for it; when not, they run on every PostToolUse.
 *
 * Decided in this order, without spawning anything (the hook path is hot):
 * 1. `AI_AGENT=claude-code_<major>-<minor>-<patch>_<entry>`, which Claude Code sets for
 *    its hooks (seen in 2.1.330): 2.1.0 or later has PostToolBatch.
 * 2. Else the project marker `.cpilot/claude-batch-event`, written the first time a
 *    PostToolBatch arrives here.
 * 3. Else no. The batch callbacks a PostToolUse ran in that case are remembered per tool
 *    call, so a PostToolBatch that does arrive after all does not run them twice.
 */
export function hasBatchEvent(root: string, env: NodeJS.ProcessEnv = process.env): boolean {
  const version = claudeVersionFromEnv(env);
  if (version !== null) return compareVersions(version, [2, 1, 0]) >= 0;
  return existsSync(markerPath(root));
}

/** Remember that this project's Claude Code sends PostToolBatch. */
export function markBatchEventSeen(root: string): void {
  if (existsSync(markerPath(root))) return;
  try {
    stateDir(root);
    // "wx": never through a planted (even dangling) symlink
    writeFileSync(markerPath(root), `${new Date().toISOString()}\n`, { flag: "wx" });
  } catch {
    // next time then
  }
}

/** `[2, 1, 330]` from `AI_AGENT=claude-code_2-1-330_cli`, else null. */
export function claudeVersionFromEnv(env: NodeJS.ProcessEnv): [number, number, number] | null {
  const match = /^claude-code_(\d+)-(\d+)-(\d+)/.exec(env.AI_AGENT ?? "");
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : null;
}

/** `[2, 1, 330]` from `claude --version` output like `2.1.330 (Claude Code)`, else null. */
export function parseClaudeVersion(text: string): [number, number, number] | null {
  const match = /(\d+)\.(\d+)\.(\d+)/.exec(text);
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : null;
}

export function compareVersions(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < 3; i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

function markerPath(root: string): string {
  return statePath(root, STATE.claudeBatchEvent);
}
