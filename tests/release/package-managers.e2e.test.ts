// The npm packages installed from their tarballs by the package managers people use (pnpm
// in a workspace with a `catalog:`, yarn 4 and yarn 1 in a workspace, bun), the pre-release way:
// overrides or resolutions naming the tarballs. Each time the hook command `install claude` wrote must start the native binary,
// never Node: it runs with no node on PATH, and the shim's only fallback is `node`.
// pnpm and yarn come from the npm registry on first use, into node_modules/.cache/cpilot-release.
import { beforeAll, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { TARGETS, type Target } from "../../scripts/release/targets.ts";
import { tempDir, writeFiles } from "../helpers/tmp.ts";
import { pathWithoutNode } from "./_no-node-path.ts";
import { ensureRelease, RELEASE, REPO } from "./_release-build.ts";

const VERSION: string = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")).version;
const PNPM_VERSION = "12.4.2";
const YARN_VERSION = "4.18.1";
const YARN_CLASSIC_VERSION = "1.22.22";
const TOOLS = join(REPO, "node_modules", ".cache", "cpilot-release", "tools");
// a folder of its own: npm would prune what a second install into TOOLS does not name
const YARN_CLASSIC_TOOLS = join(TOOLS, "yarn-classic");
const BUN = join(REPO, "node_modules", ".bin", "bun");
const tarball = (name: string) =>
  join(RELEASE, "npm", `${name.replace("@", "").replace("/", "-")}-${VERSION}.tgz`);

beforeAll(() => {
  process.stderr.write(`package managers e2e: ${ensureRelease("host")}\n`);
  const yarn = join(TOOLS, "node_modules", "@yarnpkg", "cli-dist", "package.json");
  if (!existsSync(join(TOOLS, "node_modules", "pnpm", "package.json")) || !existsSync(yarn)) {
    mkdirSync(TOOLS, { recursive: true });
    const r = spawnSync(
      "npm",
      ["install", "--no-save", "--ignore-scripts", "--no-audit", "--no-fund"].concat([
        "--prefix",
        TOOLS,
        `pnpm@${PNPM_VERSION}`,
        `@yarnpkg/cli-dist@${YARN_VERSION}`,
      ]),
      { encoding: "utf8", timeout: 300_000 },
    );
    if (r.status !== 0)
      throw new Error(`Cannot install pnpm and yarn: npm install failed\n${r.stderr}`);
  }
  if (!existsSync(join(YARN_CLASSIC_TOOLS, "node_modules", "yarn", "package.json"))) {
    mkdirSync(YARN_CLASSIC_TOOLS, { recursive: true });
    const r = spawnSync(
      "npm",
      ["install", "--no-save", "--ignore-scripts", "--no-audit", "--no-fund"].concat([
        "--prefix",
        YARN_CLASSIC_TOOLS,
        `yarn@${YARN_CLASSIC_VERSION}`,
      ]),
      { encoding: "utf8", timeout: 300_000 },
    );
    if (r.status !== 0) throw new Error(`Cannot install yarn 1: npm install failed\n${r.stderr}`);
  }
}, 20 * 60_000);

test("pnpm workspace with catalog: and overrides: the hook command runs the binary without Node", () => {
  const project = userProject();
  writeFiles(project, {
    "package.json": JSON.stringify({
      name: "root",
      private: true,
      devDependencies: { cpilot: "catalog:" },
    }),
    "pnpm-workspace.yaml": [
      "packages:",
      "  - packages/*",
      "catalog:",
      `  cpilot: ${VERSION}`,
      // pnpm reads overrides here (not from package.json's top level).
      "overrides:",
      `  cpilot: "file:${tarball("cpilot")}"`,
      `  "@cpilot/linux-x64": "file:${tarball("@cpilot/linux-x64")}"`,
      "",
    ].join("\n"),
    "packages/a/package.json": JSON.stringify({ name: "a", version: "1.0.0" }),
  });
  // Installed with scripts off, pnpm's .bin entry is a placeholder: its own launcher runs.
  const pnpm = join(TOOLS, "node_modules", "pnpm", "bin", "pnpm.mjs");
  const env = {
    PATH: process.env.PATH,
    HOME: project,
    npm_config_store_dir: join(project, ".store"),
  };
  const install = spawnSync("node", [pnpm, "install", "--offline"], {
    cwd: project,
    env,
    encoding: "utf8",
    timeout: 300_000,
  });
  expect(install.stdout + install.stderr).not.toContain("ERR");
  expect(install.status).toBe(0);
  const exec = (cwd: string, ...args: string[]) =>
    spawnSync("node", [pnpm, "exec", "cpilot", ...args], {
      cwd,
      env,
      encoding: "utf8",
      timeout: 120_000,
    });
  expect(exec(project, "--version").stdout).toStartWith(`${VERSION} (commit`);
  expect(exec(join(project, "packages", "a"), "--version").stdout).toStartWith(VERSION);
  expect(exec(project, "install", "claude").status).toBe(0);
  expectHookRunsNative(project);
}, 600_000);

test("bun with overrides installs both libc builds: the shim still picks the binary, not Node", () => {
  const project = userProject();
  // bun ignores the libc field: a musl package beside the glibc one is installed too. This
  // one's binary only says it ran, so picking it shows in the output.
  const musl = join(project, ".musl-package");
  writeFiles(musl, {
    "package.json": JSON.stringify({
      name: "@cpilot/linux-x64-musl",
      version: VERSION,
      os: ["linux"],
      cpu: ["x64"],
      libc: ["musl"],
      files: ["cpilot"],
    }),
    cpilot: "#!/bin/sh\necho the musl build ran\n",
  });
  spawnSync("chmod", ["+x", join(musl, "cpilot")]);
  const packed = spawnSync("npm", ["pack", musl, "--pack-destination", project], {
    encoding: "utf8",
  });
  expect(packed.status).toBe(0);
  writeFiles(project, {
    "package.json": JSON.stringify({
      name: "user-project",
      private: true,
      devDependencies: { cpilot: `file:${tarball("cpilot")}` },
      overrides: {
        "@cpilot/linux-x64": `file:${tarball("@cpilot/linux-x64")}`,
        "@cpilot/linux-x64-musl": `file:${join(project, `cpilot-linux-x64-musl-${VERSION}.tgz`)}`,
      },
    }),
  });
  const env = {
    PATH: process.env.PATH,
    HOME: project,
    BUN_INSTALL_CACHE_DIR: join(project, ".bun-cache"),
  };
  const install = spawnSync(BUN, ["install"], {
    cwd: project,
    env,
    encoding: "utf8",
    timeout: 300_000,
  });
  expect(install.status).toBe(0);
  expect(readdirSync(join(project, "node_modules", "@cpilot")).sort()).toEqual([
    "linux-x64",
    "linux-x64-musl",
  ]);
  const binary = join(project, "node_modules", "@cpilot", "linux-x64", "cpilot");
  expect(spawnSync(binary, ["install", "claude"], { cwd: project, env }).status).toBe(0);
  expectHookRunsNative(project);
}, 600_000);

test("yarn 4 workspace (node-modules linker) with resolutions: the hook command runs the binary", () => {
  const project = userProject();
  // yarn stops at an optional dependency it cannot resolve, so a pre-release's resolutions
  // name every platform package; those for other machines stand in here, never installed.
  const yarn = join(TOOLS, "node_modules", "@yarnpkg", "cli-dist", "bin", "yarn.js");
  const env = { PATH: process.env.PATH, HOME: project, YARN_GLOBAL_FOLDER: join(project, ".yg") };
  const install = yarnWorkspace(project, yarn, env, {
    other: (target) => `file:${otherPlatformPackage(project, target)}`,
    files: { ".yarnrc.yml": "nodeLinker: node-modules\nenableTelemetry: false\n" },
    install: ["install"],
  });
  expect(install.stdout).toContain("Done");
  expect(install.status).toBe(0);
  expect(readdirSync(join(project, "node_modules", "@cpilot"))).toEqual(["linux-x64"]);
  const run = spawnSync("node", [yarn, "cpilot", "install", "claude"], {
    cwd: project,
    env,
    encoding: "utf8",
    timeout: 120_000,
  });
  expect(run.status).toBe(0);
  expectHookRunsNative(project);
}, 600_000);

test("yarn 1 workspace with resolutions: the hook command runs the binary", () => {
  const project = userProject();
  // yarn 1 takes a package a resolution names as wanted, not optional, and stops at one for
  // another machine: those are linked to a folder that is not there (no binary to find)
  const yarn = join(YARN_CLASSIC_TOOLS, "node_modules", "yarn", "bin", "yarn.js");
  const env = {
    PATH: process.env.PATH,
    HOME: project,
    YARN_CACHE_FOLDER: join(project, ".yg"),
    YARN_ENABLE_TELEMETRY: "0",
  };
  const install = yarnWorkspace(project, yarn, env, {
    other: () => "link:./.no-cpilot-platform",
    files: {},
    install: ["install", "--non-interactive", "--offline"],
  });
  expect(install.stderr).not.toContain("error");
  expect(install.status).toBe(0);
  const platforms = join(project, "node_modules", "@cpilot");
  expect(readdirSync(platforms).filter((p) => existsSync(join(platforms, p, "cpilot")))).toEqual([
    "linux-x64",
  ]);
  const run = spawnSync("node", [yarn, "--silent", "cpilot", "install", "claude"], {
    cwd: project,
    env,
    encoding: "utf8",
    timeout: 120_000,
  });
  expect(run.stderr).toContain("cpilot: added hooks");
  expect(run.status).toBe(0);
  expectHookRunsNative(project);
}, 600_000);

/**
 * A yarn workspace root installing cpilot from its tarball, with `resolutions` naming this
 * machine's platform package as its tarball and the others as `other` says; then `yarn
 * <install>`.
 */
function yarnWorkspace(
  project: string,
  yarn: string,
  env: Record<string, string | undefined>,
  options: {
    other: (target: Target) => string;
    files: Record<string, string>;
    install: string[];
  },
) {
  const resolutions: Record<string, string> = {
    "@cpilot/linux-x64": `file:${tarball("@cpilot/linux-x64")}`,
  };
  for (const target of TARGETS.filter((t) => t.name !== "linux-x64"))
    resolutions[target.npm.name] = options.other(target);
  writeFiles(project, {
    "package.json": JSON.stringify({
      name: "root",
      private: true,
      workspaces: ["packages/*"],
      devDependencies: { cpilot: `file:${tarball("cpilot")}` },
      resolutions,
    }),
    "packages/a/package.json": JSON.stringify({ name: "a", version: "1.0.0" }),
    ...options.files,
  });
  return spawnSync("node", [yarn, ...options.install], {
    cwd: project,
    env,
    encoding: "utf8",
    timeout: 300_000,
  });
}

/** A packed stand-in for another machine's platform package, with its os, cpu and libc. */
function otherPlatformPackage(project: string, target: Target): string {
  const dir = join(project, ".platforms", target.name);
  writeFiles(dir, {
    "package.json": JSON.stringify({
      name: target.npm.name,
      version: VERSION,
      os: [target.npm.os],
      cpu: [target.npm.cpu],
      ...(target.npm.libc ? { libc: [target.npm.libc] } : {}),
    }),
  });
  const packed = spawnSync("npm", ["pack", dir, "--json", "--pack-destination", project], {
    encoding: "utf8",
  });
  expect(packed.status).toBe(0);
  return join(project, (JSON.parse(packed.stdout) as [{ filename: string }])[0].filename);
}

/** A git repo with a config that fails a .txt file holding a line "fail". */
function userProject(): string {
  const project = tempDir("cpilot-pm-", { git: true });
  writeFiles(project, {
    "callbacks.config.json": JSON.stringify({
      callbacks: [
        {
          name: "count",
          pattern: "*.txt",
          run: 'if grep -qx fail "$@"; then exit 1; fi; wc -l "$@"',
          timeout: 60,
        },
      ],
    }),
    ".gitignore": "node_modules/\n.store/\n.bun-cache/\n.musl-package/\n.platforms/\n.yg/\n",
  });
  return project;
}

/**
 * Claude's PostToolUse command from the settings `install` wrote, run with no node on PATH:
 * it answers with the check's result, so the native binary ran (the shim's only other way
 * is `node`), and `--version` through the same command names the glibc build.
 */
function expectHookRunsNative(project: string): void {
  const settings = JSON.parse(readFileSync(join(project, ".claude", "settings.json"), "utf8"));
  const command: string = settings.hooks.PostToolUse[0].hooks[0].command;
  expect(command).toBe('"$CLAUDE_PROJECT_DIR"/node_modules/cpilot/bin/cpilot.sh hook claude');
  const noNode = { PATH: pathWithoutNode(project), HOME: project, CLAUDE_PROJECT_DIR: project };
  expect(spawnSync("sh", ["-c", "command -v node"], { env: noNode }).status).not.toBe(0);
  const version = spawnSync("/bin/sh", ["-c", command.replace("hook claude", "--version")], {
    cwd: project,
    env: noNode,
    encoding: "utf8",
  });
  expect(version.stdout.trim()).toMatch(new RegExp(`^${VERSION} \\(commit .*, linux-x64\\)$`));
  writeFiles(project, { "b.txt": "fail\n" });
  const hook = spawnSync("/bin/sh", ["-c", command], {
    cwd: project,
    env: noNode,
    encoding: "utf8",
    timeout: 120_000,
    input: JSON.stringify({
      hook_event_name: "PostToolUse",
      tool_name: "Write",
      tool_input: { file_path: join(project, "b.txt"), content: "fail\n" },
      tool_response: { type: "create", filePath: join(project, "b.txt") },
      tool_use_id: "toolu_1",
    }),
  });
  expect(hook.stderr).toBe("");
  expect(hook.status).toBe(0);
  expect(JSON.parse(hook.stdout)).toMatchObject({ decision: "block" });
}
