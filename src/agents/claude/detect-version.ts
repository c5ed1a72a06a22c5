import type * as NodeChildProcess from "node:child_process";
import { nodeBuiltin } from "../../platform/builtin.ts";
import { compareVersions, parseClaudeVersion } from "./protocol.ts";

/** `claude --version`, for install-time choices; null when it cannot be run or says something unexpected. */
export function detectClaudeVersion(command = "claude"): [number, number, number] | null {
  const { spawnSync } = nodeBuiltin<typeof NodeChildProcess>("node:child_process");
  const r = spawnSync(command, ["--version"], {
    encoding: "utf8",
    timeout: 5_000,
    stdio: ["ignore", "pipe", "ignore"],
  });
  if (r.status !== 0 || typeof r.stdout !== "string") return null;
  return parseClaudeVersion(r.stdout);
}

/** Unknown version: yes. */
export function supportsBatchEvent(version: readonly number[] | null): boolean {
  return version === null || compareVersions(version, [2, 1, 0]) >= 0;
}

/** A plugin's hooks module (a mod) loads from 2.1.287; unknown version: no, a mod is optional. */
export function supportsMods(version: readonly number[] | null): boolean {
  return version !== null && compareVersions(version, [2, 1, 287]) >= 0;
}
