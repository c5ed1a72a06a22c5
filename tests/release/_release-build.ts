// dist/release for the release tests: reused when it was built from the files as they are
// now, else built here for every target whose Bun runtime is on disk (no network at test
// time; `npm run release` fetches the others once).
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { inputsFingerprint } from "../../scripts/release/inputs.ts";
import { runtimePath } from "../../scripts/release/runtimes.ts";
import { hostTarget, TARGETS, type Target } from "../../scripts/release/targets.ts";

export const REPO = join(import.meta.dir, "..", "..");
export const RELEASE = join(REPO, "dist", "release");

/** The targets this machine can build without the network. */
export const BUILDABLE: readonly Target[] = TARGETS.filter(
  (t) => t === hostTarget() || runtimePath(REPO, t) !== undefined,
);

/** Why a target is not checked here, or undefined when it is. */
export function missingReason(target: Target): string | undefined {
  if (BUILDABLE.includes(target)) return undefined;
  return `${target.runtimePackage} is not on disk: run \`npm run release\` once with the npm registry reachable`;
}

/** Build dist/release unless it is fresh; returns how it went, for the test log. */
export function ensureRelease(): string {
  const names = BUILDABLE.map((t) => t.name);
  const fingerprint = inputsFingerprint(REPO, names);
  const stamp = join(RELEASE, "INPUTS");
  if (existsSync(stamp) && readFileSync(stamp, "utf8").trim() === fingerprint) {
    return "reused dist/release";
  }
  const r = spawnSync(
    process.execPath,
    [join(REPO, "scripts", "release.ts"), "--targets", names.join(",")],
    {
      cwd: REPO,
      encoding: "utf8",
      timeout: 20 * 60_000,
    },
  );
  if (r.status !== 0) throw new Error(`release build failed:\n${r.stderr}`);
  return `built ${names.join(", ")}`;
}
