/**
 * Codex's own patch code: the pinned Codex binary applies a patch from argv when started
 * with `--codex-run-as-apply-patch` (what its apply_patch tool runs), with no model and no
 * network. The native binary is used when it can be found, for speed; else the npm launcher.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";

const MODULES = join(import.meta.dir, "..", "..", "..", "..", "node_modules");

function codexArgv(): string[] {
  const scope = join(MODULES, "@openai");
  for (const pkg of existsSync(scope) ? readdirSync(scope) : []) {
    const vendor = join(scope, pkg, "vendor");
    if (!pkg.startsWith("codex-") || !existsSync(vendor)) continue;
    for (const triple of readdirSync(vendor)) {
      const bin = join(vendor, triple, "bin", "codex");
      if (existsSync(bin)) return [bin];
    }
  }
  return [join(MODULES, ".bin", "codex")];
}

const ARGV = codexArgv();

export interface Applied {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Apply `patch` with Codex in `cwd`, HOME `home`. */
export function codexApply(patch: string, cwd: string, home: string): Applied {
  const [cmd, ...args] = ARGV as [string, ...string[]];
  const r = spawnSync(cmd, [...args, "--codex-run-as-apply-patch", patch], {
    cwd,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home },
    encoding: "utf8",
    timeout: 30_000,
  });
  return { code: r.status, stdout: r.stdout ?? "", stderr: r.stderr ?? "" };
}
