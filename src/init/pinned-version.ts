import { runSync, utf8 } from "../platform/run-sync.ts";
import type { ProjectFiles } from "./project-files.ts";

const PRE_COMMIT_REPOS: Readonly<Record<string, RegExp>> = {
  ruff: /ruff-pre-commit/,
  "ruff-format": /ruff-pre-commit/,
  black: /psf\/black/,
  prettier: /mirrors-prettier/,
  isort: /pycqa\/isort/i,
};

/** `rev: v0.7.0` → `0.7.0`. */
export function pinnedVersion(p: ProjectFiles, tool: string): string | undefined {
  const repo = PRE_COMMIT_REPOS[tool];
  const text = p.text(".pre-commit-config.yaml");
  if (repo === undefined || text === undefined) return undefined;
  const lines = text.split("\n");
  const at = lines.findIndex((l) => /^\s*-?\s*repo:/.test(l) && repo.test(l));
  if (at === -1) return undefined;
  for (const line of lines.slice(at + 1, at + 4)) {
    const rev = /^\s*rev:\s*['"]?v?(\d+(?:\.\d+)*)/.exec(line);
    if (rev) return rev[1];
    if (/^\s*-\s*repo:/.test(line)) break;
  }
  return undefined;
}

/** `ruff 0.16.9` → `0.16.9`. */
export function installedVersion(bin: string, cwd: string): string | undefined {
  const r = runSync(bin, ["--version"], { cwd, timeoutMs: 10_000 });
  if (r.error !== null || r.status !== 0) return undefined;
  return /(\d+\.\d+(?:\.\d+)?)/.exec(utf8(r.stdout))?.[1];
}
