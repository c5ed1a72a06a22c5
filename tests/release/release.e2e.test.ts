// `npm run release` end to end: the binaries are of their platform's format, named in
// SHA256SUMS; linux-x64 runs here (the rest of the suite runs it too), linux-arm64 under
// qemu-user where that is installed; and the npm packages install from their tarballs alone,
// offline, with no bun on PATH, then run and type-check a config.
// Takes ~1-3 min when it has to build (6 targets and their npm tarballs), ~20 s when
// dist/release is fresh.
import { beforeAll, describe, expect, test } from "bun:test";
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, renameSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { binaryName, TARGETS } from "../../scripts/release/targets.ts";
import { processAlive, tempDir, waitFor, writeFiles } from "../helpers/tmp.ts";
import { executableFormat } from "./_executable-format.ts";
import { pathWithoutNode } from "./_no-node-path.ts";
import { BUILDABLE, ensureRelease, missingReason, RELEASE, REPO } from "./_release-build.ts";

const VERSION: string = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")).version;
const linuxX64 = TARGETS.find((t) => t.name === "linux-x64")!;
const linuxArm64 = TARGETS.find((t) => t.name === "linux-arm64")!;

beforeAll(() => {
  process.stderr.write(`release e2e: ${ensureRelease()}\n`);
}, 20 * 60_000);

describe("each binary is an executable of its platform", () => {
  const expected: Record<string, object> = {
    "linux-x64": { interpreter: "/lib64/ld-linux-x86-64.so.2" },
    "linux-arm64": { interpreter: "/lib/ld-linux-aarch64.so.1" },
    "linux-x64-musl": { interpreter: "/lib/ld-musl-x86_64.so.1" },
    // arm64 macOS kills a binary that carries no code signature.
    "darwin-x64": { signed: true },
    "darwin-arm64": { signed: true },
    "windows-x64": { console: true },
  };
  for (const target of TARGETS) {
    const skip = missingReason(target);
    test.skipIf(skip !== undefined)(
      `${binaryName(target)}${skip ? ` (skipped: ${skip})` : ""}`,
      () => {
        const format = executableFormat(join(RELEASE, binaryName(target)));
        expect(format).toMatchObject({ ...target.format, ...expected[target.name] });
      },
    );
  }
});

test("SHA256SUMS names every binary with its hash", () => {
  const lines = readFileSync(join(RELEASE, "SHA256SUMS"), "utf8").trim().split("\n");
  expect(lines.map((l) => l.split("  ")[1])).toEqual(BUILDABLE.map(binaryName));
  for (const line of lines) {
    const [hash, file] = line.split("  ");
    const actual = createHash("sha256")
      .update(readFileSync(join(RELEASE, file!)))
      .digest("hex");
    expect(actual).toBe(hash!);
  }
});

test("the linux-x64 binary says its version, commit and target", () => {
  const r = spawnSync(join(RELEASE, binaryName(linuxX64)), ["--version"], { encoding: "utf8" });
  expect(r.stdout.trim()).toMatch(
    new RegExp(`^${VERSION} \\(commit [0-9a-f]{12}(-dirty)?, linux-x64\\)$`),
  );
});

/** qemu-user for aarch64 and an arm64 glibc to load the binary with (Debian: libc6-arm64-cross). */
const QEMU = ["/usr/bin/qemu-aarch64-static", "/usr/bin/qemu-aarch64"].find(existsSync);
const ARM64_SYSROOT = "/usr/aarch64-linux-gnu";
const qemuMissing =
  missingReason(linuxArm64) ??
  (QEMU === undefined
    ? "qemu-user is not installed (apt-get install qemu-user-static)"
    : !existsSync(join(ARM64_SYSROOT, "lib", "ld-linux-aarch64.so.1"))
      ? "no arm64 glibc to load it with (apt-get install libc6-arm64-cross)"
      : undefined);

test.skipIf(qemuMissing !== undefined)(
  `the linux-arm64 binary runs --version and a check under qemu-user${qemuMissing ? ` (skipped: ${qemuMissing})` : ""}`,
  () => {
    const arm64 = [QEMU!, "-L", ARM64_SYSROOT, join(RELEASE, binaryName(linuxArm64))];
    const version = spawnSync(arm64[0]!, [...arm64.slice(1), "--version"], { encoding: "utf8" });
    expect(version.stdout.trim()).toMatch(new RegExp(`^${VERSION} \\(commit .*, linux-arm64\\)$`));
    // A JSON config: under qemu-user the binary's own path reads as the emulator's, so cpilot
    // cannot start itself again to load a script config in a supervised child (on arm64
    // hardware it can; the x64 binary's tests cover that path).
    const project = projectWithConfig();
    rmSync(join(project, "callbacks.config.ts"));
    writeFiles(project, {
      "callbacks.config.json": JSON.stringify({
        callbacks: [{ name: "count", pattern: "*.txt", run: 'wc -l "$@"', timeout: 60 }],
      }),
    });
    const check = spawnSync(arm64[0]!, [...arm64.slice(1), "check", "--all", "--json"], {
      cwd: project,
      encoding: "utf8",
      env: { PATH: "/usr/bin:/bin", HOME: project },
      timeout: 120_000,
    });
    expect(check.status).toBe(0);
    expect(JSON.parse(check.stdout).runs[0]).toMatchObject({
      callback: "count",
      status: "passed",
      tail: ["1 a.txt"],
    });
  },
  180_000,
);

test("npm i -D cpilot from the tarballs: npx cpilot runs without bun, and the config type-checks", async () => {
  const tarballs = join(RELEASE, "npm");
  const project = projectWithConfig();
  const file = (name: string) =>
    join(tarballs, `${name.replace("@", "").replace("/", "-")}-${VERSION}.tgz`);
  const tarball = (name: string) => `file:${file(name)}`;
  // Each platform package that was packed comes from its tarball (npm reads its os/cpu/libc
  // there and installs only this machine's); the others cannot be fetched offline, and npm
  // skips an optional dependency it cannot fetch.
  const packed = TARGETS.filter((t) => existsSync(file(t.npm.name)));
  expect(packed).toContain(linuxX64);
  const overrides = Object.fromEntries(packed.map((t) => [t.npm.name, tarball(t.npm.name)]));
  writeFiles(project, {
    "package.json": JSON.stringify({
      name: "user-project",
      private: true,
      devDependencies: { cpilot: tarball("cpilot") },
      overrides,
    }),
  });
  // Node and npm, git and bash, and nothing else: no bun anywhere on PATH.
  const env = {
    PATH: `${dirname(nodePath())}:/usr/bin:/bin`,
    HOME: project,
    npm_config_cache: join(project, ".npm-cache"),
  };
  expect(spawnSync("sh", ["-c", "command -v bun"], { env }).status).not.toBe(0);
  const install = spawnSync("npm", ["install", "--offline", "--no-audit", "--no-fund"], {
    cwd: project,
    env,
    encoding: "utf8",
    timeout: 300_000,
  });
  expect(install.stderr).not.toContain("ERR");
  expect(install.status).toBe(0);

  const npx = (...args: string[]) =>
    spawnSync("npx", ["--no-install", "cpilot", ...args], {
      cwd: project,
      env,
      encoding: "utf8",
      timeout: 120_000,
    });
  expect(npx("--version").stdout.trim()).toMatch(
    new RegExp(`^${VERSION} \\(commit .*, linux-x64\\)$`),
  );
  // The binary's own path, for scripts that want no Node in between.
  const binaryPath = spawnSync("node", ["-p", `require("cpilot/binary-path").binaryPath()`], {
    cwd: project,
    env,
    encoding: "utf8",
  }).stdout.trim();
  expect(binaryPath).toBe(join(project, "node_modules", "@cpilot", "linux-x64", "cpilot"));
  expect(spawnSync(binaryPath, ["--version"], { encoding: "utf8" }).stdout).toStartWith(VERSION);
  const check = npx("check", "--all", "--json");
  expect(check.status).toBe(0);
  expect(JSON.parse(check.stdout).runs[0]).toMatchObject({ callback: "count", status: "passed" });
  // The launcher ends with the binary's exit code: a failing blocking callback is 1.
  writeFiles(project, { "b.txt": "fail\n" });
  expect(npx("check", "b.txt").status).toBe(1);

  // Shared hook settings start the binary through the package's sh shim, with no Node: with
  // node nowhere on PATH the hook still answers (the shim's only fallback is `node`).
  expect(npx("install", "claude").status).toBe(0);
  const settings = JSON.parse(readFileSync(join(project, ".claude", "settings.json"), "utf8"));
  const command: string = settings.hooks.PostToolUse[0].hooks[0].command;
  expect(command).toBe('"$CLAUDE_PROJECT_DIR"/node_modules/cpilot/bin/cpilot.sh hook claude');
  const noNode = { PATH: pathWithoutNode(project), HOME: project, CLAUDE_PROJECT_DIR: project };
  expect(spawnSync("sh", ["-c", "command -v node"], { env: noNode }).status).not.toBe(0);
  const hook = (payloadFile: string, env: NodeJS.ProcessEnv) =>
    spawnSync("/bin/sh", ["-c", command], {
      cwd: project,
      env,
      encoding: "utf8",
      timeout: 120_000,
      input: JSON.stringify({
        hook_event_name: "PostToolUse",
        tool_name: "Write",
        tool_input: { file_path: join(project, payloadFile), content: "fail\n" },
        tool_response: { type: "create", filePath: join(project, payloadFile) },
        tool_use_id: "toolu_1",
      }),
    });
  const answered = hook("b.txt", noNode);
  expect(answered.stderr).toBe("");
  expect(answered.status).toBe(0);
  expect(JSON.parse(answered.stdout)).toMatchObject({ decision: "block" });
  expect(JSON.parse(answered.stdout).reason).toStartWith("✗ 'count' failed on b.txt: exit 1");
  expect(npx("doctor").stdout).not.toContain("cannot start cpilot");
  // No platform package (installed with --omit=optional): the shim hands over to the Node
  // launcher, which says what is missing.
  const platformDir = join(project, "node_modules", "@cpilot", "linux-x64");
  const away = join(project, "platform-package-away");
  renameSync(platformDir, away);
  const fallback = hook("b.txt", { ...env, CLAUDE_PROJECT_DIR: project });
  renameSync(away, platformDir);
  expect(fallback.stderr).toContain(`Cannot find a cpilot binary for "linux-x64"`);
  expect(fallback.status).toBe(2);

  // A parent's SIGTERM to the launcher alone reaches cpilot, which stops its runs: nothing
  // is left running (a launcher that just died would leave cpilot and its callback behind).
  writeFiles(project, { "c.slow": "" });
  const launcher = spawn(join(project, "node_modules", ".bin", "cpilot"), ["check", "c.slow"], {
    cwd: project,
    env,
    stdio: "ignore",
  });
  const pidFile = join(project, "slow.pid");
  expect(await waitFor(() => existsSync(pidFile), 60_000)).toBe(true);
  const sleeper = Number(readFileSync(pidFile, "utf8"));
  const exited = new Promise((resolve) => launcher.on("exit", resolve));
  launcher.kill("SIGTERM");
  await exited;
  expect(await waitFor(() => !processAlive(sleeper), 15_000)).toBe(true);

  writeFiles(project, {
    "tsconfig.json": JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        module: "NodeNext",
        moduleResolution: "NodeNext",
        target: "ES2022",
        exactOptionalPropertyTypes: true,
        types: [],
      },
      include: ["callbacks.config.ts"],
    }),
  });
  const tsc = spawnSync(join(REPO, "node_modules", ".bin", "tsc"), ["-p", "."], {
    cwd: project,
    encoding: "utf8",
  });
  expect(tsc.stdout).toBe("");
  expect(tsc.status).toBe(0);
  // And it does reject a wrong config, so the pass above means something.
  writeFiles(project, {
    "callbacks.config.ts": [
      `import { defineConfig } from "cpilot";`,
      "export default defineConfig({",
      `  callbacks: [{ name: "x", pattern: "*", run: "true", blocking: "yes" }],`,
      `  gate: { headless: "maybe" },`,
      "});",
    ].join("\n"),
  });
  const wrong = spawnSync(join(REPO, "node_modules", ".bin", "tsc"), ["-p", "."], {
    cwd: project,
    encoding: "utf8",
  });
  // Both the callback and the gate section are typed (the gate one is written out by hand).
  expect(wrong.stdout).toContain("callbacks.config.ts(3,");
  expect(wrong.stdout).toContain("callbacks.config.ts(4,");
  expect(wrong.status).not.toBe(0);
}, 600_000);

/** A git repo with a config that counts .txt lines (failing on a line "fail") and a.txt. */
function projectWithConfig(): string {
  const project = tempDir("cpilot-release-", { git: true });
  writeFiles(project, {
    "callbacks.config.ts": `import { defineCallback, defineConfig } from "cpilot";

const count = defineCallback({
  name: "count",
  pattern: "*.txt",
  run: 'if grep -qx fail "$@"; then exit 1; fi; wc -l "$@"',
  timeout: 60,
});
const slow = defineCallback({
  name: "slow",
  pattern: "*.slow",
  run: "echo $$ > slow.pid.tmp && mv slow.pid.tmp slow.pid && exec sleep 120",
  timeout: 300,
});

export default defineConfig({
  callbacks: [count, slow, { name: "note", pattern: "*.md", run: ({ files, log }) => log(String(files.length)), timeout: 5 }],
  gate: { rules: [{ action: "deny", pattern: "secrets/", reason: "not for agents" }], headless: "deny" },
});
`,
    "a.txt": "one\n",
    ".gitignore": "node_modules/\n",
  });
  spawnSync("git", ["add", "-A"], { cwd: project }); // --all lists what git tracks
  return project;
}

function nodePath(): string {
  const r = spawnSync("sh", ["-c", "command -v node"], { encoding: "utf8" });
  return r.stdout.trim();
}
