// dist/release for the release tests: reused when it was built from the files as they are
// now, else built here for every target whose Bun runtime is on disk (no network at test
// time; `npm run release` fetches the others once).
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { inputsFingerprint, releaseKey } from "../../scripts/release/inputs.ts";
import { ensureRuntime, runtimePath } from "../../scripts/release/runtimes.ts";
import { hostTarget, TARGETS, type Target } from "../../scripts/release/targets.ts";

export const REPO = join(import.meta.dir, "..", "..");
export const RELEASE = join(REPO, "dist", "release");

/** The targets this machine can build without the network (a runtime on disk or in npm's cache). */
export const BUILDABLE: readonly Target[] = TARGETS.filter(
  (t) => t === hostTarget() || runtimePath(REPO, t) !== undefined || fromNpmCache(t),
);

function fromNpmCache(target: Target): boolean {
  try {
    ensureRuntime(REPO, target, { offline: true });
    return true;
  } catch {
    return false;
  }
}

/** Why a target is not checked here, or undefined when it is. */
export function missingReason(target: Target): string | undefined {
  if (BUILDABLE.includes(target)) return undefined;
  return `${target.runtimePackage} is neither on disk nor in npm's cache: run \`npm run release\` once with the npm registry reachable`;
}

/**
 * Build dist/release unless it is fresh: a full release of every buildable target, or one
 * this test made (every buildable binary, only this machine's platform package, which is
 * what the npm test installs); with scope "host", only this machine's binary. Returns how
 * it went, for the test log.
 */
export function ensureRelease(scope: "buildable" | "host" = "buildable"): string {
  const host = BUILDABLE.filter((t) => t === hostTarget());
  const stamp = join(RELEASE, "INPUTS");
  const built = existsSync(stamp) ? readFileSync(stamp, "utf8").trim() : "";
  // A test of this machine's package alone takes any fresh release that packed it.
  const fits: [readonly Target[], readonly Target[]][] = [
    [BUILDABLE, BUILDABLE],
    [BUILDABLE, host],
    ...(scope === "host" ? [[host, host] as [Target[], Target[]]] : []),
  ];
  for (const [targets, packed] of fits) {
    if (built === inputsFingerprint(REPO, releaseKey(targets, packed)))
      return "reused dist/release";
  }
  const names = (scope === "host" ? host : BUILDABLE).map((t) => t.name).join(",");
  const args = [join(REPO, "scripts", "release.ts"), "--targets", names, "--npm-platforms", "host"];
  const r = spawnSync(process.execPath, args, {
    cwd: REPO,
    encoding: "utf8",
    timeout: 20 * 60_000,
  });
  if (r.status !== 0) throw new Error(`release build failed:\n${r.stderr}`);
  return `built ${names} (npm: this machine's platform package only)`;
}
