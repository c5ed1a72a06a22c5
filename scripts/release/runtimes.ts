// Bun's runtime for each target, taken from the npm registry the user's npm is set up for:
// the @oven/bun-<target> packages at the version package-lock.json pins for the `bun`
// devDependency, checked against the lock file's integrity hash. `npm ci` installs only
// this machine's one (they are optional dependencies with os/cpu filters), so the others
// are fetched once with `npm pack` into node_modules/.cache; every later build is offline.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { Target } from "./targets.ts";

export const RUNTIME_CACHE = join("node_modules", ".cache", "cpilot-release", "runtimes");

interface LockEntry {
  version: string;
  integrity: string;
}

/** The runtime package's version and integrity as package-lock.json pins them. */
export function lockedRuntime(repo: string, target: Target): LockEntry {
  const lock = JSON.parse(readFileSync(join(repo, "package-lock.json"), "utf8")) as {
    packages: Record<string, Partial<LockEntry>>;
  };
  const entry = lock.packages[`node_modules/${target.runtimePackage}`];
  if (!entry?.version || !entry.integrity) {
    throw new Error(
      `Cannot find "${target.runtimePackage}" in package-lock.json: the bun devDependency no longer lists it\nhint: pick another runtime package for ${target.name} in scripts/release/targets.ts`,
    );
  }
  return { version: entry.version, integrity: entry.integrity };
}

/** The path of the runtime executable for `target`, already on disk: installed or cached. */
export function runtimePath(repo: string, target: Target): string | undefined {
  const { version } = lockedRuntime(repo, target);
  const installed = join(repo, "node_modules", target.runtimePackage);
  if (installedVersion(installed) === version) return join(installed, target.runtimeFile);
  const cached = join(repo, cacheDir(target, version), target.runtimeFile);
  return existsSync(cached) ? cached : undefined;
}

/**
 * The runtime for `target`, fetched through npm when neither installed nor cached here.
 * `offline`: from npm's own cache only (`npm ci` empties node_modules/.cache, npm's cache
 * keeps the tarballs), failing rather than reaching the registry.
 */
export function ensureRuntime(
  repo: string,
  target: Target,
  options: { offline?: boolean } = {},
): string {
  const present = runtimePath(repo, target);
  if (present !== undefined) return present;
  const { version, integrity } = lockedRuntime(repo, target);
  const dir = join(repo, cacheDir(target, version));
  const work = `${dir}.tmp-${process.pid}`;
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const spec = `${target.runtimePackage}@${version}`;
  const pack = spawnSync(
    "npm",
    [
      "pack",
      spec,
      options.offline ? "--offline" : "--prefer-offline",
      "--json",
      "--pack-destination",
      work,
    ],
    { encoding: "utf8", stdio: ["ignore", "pipe", options.offline ? "ignore" : "inherit"] },
  );
  if (pack.status !== 0) {
    rmSync(work, { recursive: true, force: true });
    throw new Error(
      `Cannot fetch "${spec}": npm pack exited ${pack.status}\nhint: the first release build needs the npm registry; later ones use node_modules/.cache`,
    );
  }
  const [{ filename }] = JSON.parse(pack.stdout) as [{ filename: string }];
  const tarball = join(work, filename);
  const actual = `sha512-${createHash("sha512").update(readFileSync(tarball)).digest("base64")}`;
  if (actual !== integrity) {
    throw new Error(
      `Cannot use "${spec}": its tarball's hash ${actual} is not the ${integrity} package-lock.json pins\nhint: check the npm registry your npm is set up for`,
    );
  }
  const untar = spawnSync("tar", ["-xzf", tarball, "-C", work, "--strip-components=1"], {
    stdio: "inherit",
  });
  if (untar.status !== 0) throw new Error(`Cannot unpack "${tarball}": tar exited ${untar.status}`);
  rmSync(tarball);
  rmSync(dir, { recursive: true, force: true });
  renameSync(work, dir);
  return join(dir, target.runtimeFile);
}

function cacheDir(target: Target, version: string): string {
  return join(RUNTIME_CACHE, `${target.runtimePackage.replace("/", "+")}@${version}`);
}

function installedVersion(dir: string): string | undefined {
  try {
    return (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { version: string })
      .version;
  } catch {
    return undefined;
  }
}
