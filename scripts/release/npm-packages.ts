// The npm packages, on the pattern of esbuild, biome and lefthook: `cpilot` holds a small
// Node launcher, the config types and helpers, and lists one optional dependency per
// platform; each @cpilot/<platform> package holds that platform's binary and says with
// os, cpu and libc where it fits, so npm installs just the one a machine needs.
import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, cpSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { publicTypes } from "./public-types.ts";
import { binaryName, TARGETS, type Target } from "./targets.ts";

interface RootPackage {
  version: string;
  description: string;
  license: string;
  engines: { node: string };
}

/** Stage every package in `stage` and `npm pack` it into `out`; returns the tarballs' names. */
export function packNpmPackages(
  repo: string,
  root: RootPackage,
  built: readonly Target[],
  binaries: string,
  stage: string,
  out: string,
): string[] {
  rmSync(stage, { recursive: true, force: true });
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const dirs = [stageMain(repo, root, join(stage, "cpilot"))];
  for (const target of built) {
    dirs.push(stagePlatform(root, target, join(binaries, binaryName(target)), stage));
  }
  return dirs.map((dir) => pack(dir, out));
}

function stageMain(repo: string, root: RootPackage, dir: string): string {
  cpSync(join(repo, "npm", "cpilot"), dir, { recursive: true });
  rmSync(join(dir, "gate-config.ts"));
  writeFileSync(join(dir, "index.d.ts"), publicTypes(repo));
  const optionalDependencies = Object.fromEntries(TARGETS.map((t) => [t.npm.name, root.version]));
  writeJson(join(dir, "package.json"), {
    name: "cpilot",
    version: root.version,
    description: root.description,
    license: root.license,
    type: "module",
    bin: { cpilot: "bin/cpilot.cjs" },
    types: "./index.d.ts",
    exports: {
      ".": { types: "./index.d.ts", default: "./index.js" },
      "./binary-path": "./lib/binary-path.cjs",
      "./package.json": "./package.json",
    },
    files: ["bin/", "lib/", "index.js", "index.d.ts"],
    engines: root.engines,
    optionalDependencies,
  });
  return dir;
}

function stagePlatform(root: RootPackage, target: Target, binary: string, stage: string): string {
  const dir = join(stage, target.npm.name.replace("/", "+"));
  mkdirSync(dir, { recursive: true });
  const file = `cpilot${target.exe}`;
  copyFileSync(binary, join(dir, file));
  chmodSync(join(dir, file), 0o755);
  writeFileSync(
    join(dir, "README.md"),
    `# ${target.npm.name}\n\nThe cpilot binary for ${target.name}. Install \`cpilot\`, not this package: npm picks this one on ${target.name} machines.\n`,
  );
  writeJson(join(dir, "package.json"), {
    name: target.npm.name,
    version: root.version,
    description: `The cpilot binary for ${target.name}`,
    license: root.license,
    os: [target.npm.os],
    cpu: [target.npm.cpu],
    ...(target.npm.libc ? { libc: [target.npm.libc] } : {}),
    files: [file],
    preferUnplugged: true,
  });
  return dir;
}

function pack(dir: string, out: string): string {
  const r = spawnSync("npm", ["pack", dir, "--json", "--pack-destination", out], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  if (r.status !== 0) throw new Error(`Cannot pack "${dir}": npm pack exited ${r.status}`);
  return (JSON.parse(r.stdout) as [{ filename: string }])[0].filename;
}

function writeJson(path: string, value: unknown): void {
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
}
