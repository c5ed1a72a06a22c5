/** Shared hook files get a command every teammate can run; doctor catches one that cannot start. */
import { expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from "node:fs";
import { join } from "node:path";
import { NEAREST_NPM_SHIM } from "../../src/platform/nearest-npm-shim.ts";
import { cpilot, cpilotBinary } from "../helpers/binary.ts";
import { tempDir, writeFiles } from "../helpers/tmp.ts";

const CONFIG = JSON.stringify({
  callbacks: [{ name: "t", pattern: "*", run: "true", timeout: 5 }],
});

function project(files: Record<string, string> = {}) {
  const dir = tempDir("cpilot-portable-", { git: true });
  const home = tempDir("cpilot-portable-home-");
  writeFiles(dir, { "callbacks.config.json": CONFIG, ...files });
  return { dir, home, env: { HOME: home, PATH: "/usr/bin:/bin" } };
}

const read = (path: string): string => readFileSync(path, "utf8");

test("cpilot not on PATH: Claude's hooks go to settings.local.json with this binary's path, never to the shared file", () => {
  const p = project();
  const r = cpilot(["install", "claude"], { cwd: p.dir, env: p.env });
  expect(r.code).toBe(0);
  expect(existsSync(join(p.dir, ".claude", "settings.json"))).toBe(false);
  expect(read(join(p.dir, ".claude", "settings.local.json"))).toContain(
    `${cpilotBinary()} hook claude`,
  );
  expect(r.stderr).toContain("not on PATH");
  // Asked for the shared file anyway: it gets the portable command, and a warning.
  const shared = cpilot(["install", "claude", "--project"], { cwd: p.dir, env: p.env });
  expect(shared.stderr).toContain("warning");
  const text = read(join(p.dir, ".claude", "settings.json"));
  expect(text).toContain('"cpilot hook claude"');
  expect(text).not.toContain(cpilotBinary());
}, 60_000);

test("cpilot on PATH: the shared files name `cpilot`, for Claude, Gemini, Codex, Cursor and opencode", () => {
  const p = project();
  const bin = tempDir("cpilot-portable-bin-");
  symlinkSync(cpilotBinary(), join(bin, "cpilot"));
  const env = { ...p.env, PATH: `${bin}:/usr/bin:/bin` };
  for (const agent of ["claude", "gemini", "codex", "cursor", "opencode"])
    expect(cpilot(["install", agent], { cwd: p.dir, env }).code).toBe(0);
  // Gemini CLI runs no hook in a folder it does not trust: doctor says so until it does
  expect(cpilot(["doctor"], { cwd: p.dir, env }).code).toBe(1);
  expect(cpilot(["install", "gemini", "--trust-project"], { cwd: p.dir, env }).code).toBe(0);
  for (const [file, agent] of [
    [".claude/settings.json", "claude"],
    [".gemini/settings.json", "gemini"],
    [".codex/hooks.json", "codex"],
    [".cursor/hooks.json", "cursor"],
  ] as const) {
    const text = read(join(p.dir, file));
    expect(text).toContain(`"cpilot hook ${agent}"`);
    expect(text).not.toContain(cpilotBinary());
  }
  expect(read(join(p.dir, ".opencode", "plugins", "cpilot.ts"))).not.toContain(cpilotBinary());
  expect(cpilot(["doctor"], { cwd: p.dir, env }).code).toBe(0);
}, 60_000);

test("cpilot as a devDependency: the project's node_modules copy, through the agent's project folder", () => {
  const p = project({ "package.json": JSON.stringify({ devDependencies: { cpilot: "0.1.0" } }) });
  mkdirSync(join(p.dir, "node_modules", ".bin"), { recursive: true });
  symlinkSync(cpilotBinary(), join(p.dir, "node_modules", ".bin", "cpilot"));
  // The npm package's sh shim (a stand-in: the release test runs the real one).
  mkdirSync(join(p.dir, "node_modules", "cpilot", "bin"), { recursive: true });
  symlinkSync(cpilotBinary(), join(p.dir, "node_modules", "cpilot", "bin", "cpilot.sh"));
  for (const agent of ["claude", "gemini", "codex"])
    expect(cpilot(["install", agent], { cwd: p.dir, env: p.env }).code).toBe(0);
  expect(cpilot(["install", "gemini", "--trust-project"], { cwd: p.dir, env: p.env }).code).toBe(0);
  expect(read(join(p.dir, ".claude/settings.json"))).toContain(
    '"\\"$CLAUDE_PROJECT_DIR\\"/node_modules/cpilot/bin/cpilot.sh hook claude"',
  );
  expect(read(join(p.dir, ".gemini/settings.json"))).toContain(
    '"\\"$GEMINI_PROJECT_DIR\\"/node_modules/cpilot/bin/cpilot.sh hook gemini"',
  );
  expect(JSON.parse(read(join(p.dir, ".codex/hooks.json"))).hooks.Stop[0].hooks[0].command).toBe(
    `${NEAREST_NPM_SHIM} hook codex`,
  );
  expect(cpilot(["doctor"], { cwd: p.dir, env: p.env }).code).toBe(0);
  rmSync(join(p.dir, "node_modules"), { recursive: true });
  const after = cpilot(["doctor"], { cwd: p.dir, env: p.env });
  expect(after.code).toBe(1);
  expect(after.stdout).toContain("cannot start cpilot");
}, 60_000);

test("doctor fails when the binary an installed hook names has moved", () => {
  const p = project();
  const elsewhere = tempDir("cpilot-moved-");
  const copy = join(elsewhere, "cpilot");
  copyFileSync(cpilotBinary(), copy);
  const r = spawnSync(copy, ["install", "claude", "--local"], {
    cwd: p.dir,
    env: p.env,
    encoding: "utf8",
  });
  expect(r.status).toBe(0);
  expect(read(join(p.dir, ".claude", "settings.local.json"))).toContain(`${copy} hook claude`);
  // The user's own opencode plugin keeps this machine's binary too.
  const opencode = spawnSync(copy, ["install", "opencode", "--user"], {
    cwd: p.dir,
    env: p.env,
    encoding: "utf8",
  });
  expect(opencode.status).toBe(0);
  mkdirSync(join(p.dir, ".opencode"), { recursive: true });
  expect(cpilot(["doctor"], { cwd: p.dir, env: p.env }).code).toBe(0);
  rmSync(copy);
  const d = cpilot(["doctor"], { cwd: p.dir, env: p.env });
  expect(d.code).toBe(1);
  expect(d.stdout).toContain(`${copy} does not exist`);
  expect(d.stdout).toMatch(
    /opencode[^\n]*\n\s+✗ the hook command in [^\n]*plugins\/cpilot\.ts cannot start cpilot/,
  );
}, 60_000);

test("doctor: the npm sh shim starts cpilot when it finds the platform binary, or node for the launcher", () => {
  const p = project({ "package.json": JSON.stringify({ devDependencies: { cpilot: "0.1.0" } }) });
  const modules = join(p.dir, "node_modules");
  mkdirSync(join(modules, "cpilot", "bin"), { recursive: true });
  copyFileSync(
    join(import.meta.dir, "../../npm/cpilot/bin/cpilot.sh"),
    join(modules, "cpilot/bin/cpilot.sh"),
  );
  chmodSync(join(modules, "cpilot/bin/cpilot.sh"), 0o755);
  mkdirSync(join(modules, ".bin"));
  symlinkSync(cpilotBinary(), join(modules, ".bin", "cpilot"));
  expect(cpilot(["install", "claude"], { cwd: p.dir, env: p.env }).code).toBe(0);
  // PATH without node: the shim has nothing to fall back to until the binary is there.
  const noNode = tempDir("cpilot-no-node-");
  for (const name of readdirSync("/usr/bin"))
    if (!/^(node|nodejs|npm|npx|corepack)$/.test(name))
      symlinkSync(join("/usr/bin", name), join(noNode, name));
  const env = { ...p.env, PATH: noNode };
  const broken = cpilot(["doctor"], { cwd: p.dir, env });
  expect(broken.code).toBe(1);
  expect(broken.stdout).toContain("has no cpilot binary for this platform");
  expect(cpilot(["doctor"], { cwd: p.dir, env: p.env }).stdout).not.toContain(
    "cannot start cpilot",
  );
  mkdirSync(join(modules, "@cpilot", "linux-x64"), { recursive: true });
  symlinkSync(cpilotBinary(), join(modules, "@cpilot", "linux-x64", "cpilot"));
  expect(cpilot(["doctor"], { cwd: p.dir, env }).stdout).not.toContain("cannot start cpilot");
}, 60_000);
