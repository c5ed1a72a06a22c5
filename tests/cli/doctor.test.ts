/** `cpilot doctor` through the built binary, on temp projects with a controlled PATH and HOME. */
import { afterEach, describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { firstProgram } from "../../src/cli/doctor.ts";
import { failClosedCommand } from "../../src/hook/fail-closed-command.ts";
import { binary, cpilot } from "../agents/claude/_helpers.ts";
import { tempDir } from "../helpers/tmp.ts";

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

function setup(config: string | null, name = "callbacks.config.json") {
  const dir = tempDir("cpilot-doctor-", { git: true });
  const home = tempDir("cpilot-doctor-home-");
  const bin = tempDir("cpilot-doctor-bin-");
  dirs.push(dir, home, bin);
  if (config !== null) writeFileSync(join(dir, name), config);
  const env = { HOME: home, PATH: `${bin}:/usr/bin:/bin` };
  const doctor = (...args: string[]) => cpilot(["doctor", ...args], { cwd: dir, env });
  const json = () => JSON.parse(doctor("--json").stdout) as Record<string, unknown>;
  return { dir, home, bin, doctor, json, env };
}

const good = JSON.stringify({
  callbacks: [
    {
      name: "lint",
      pattern: "*.ts",
      run: "FOO=1 no-such-linter --fix $CP_CHANGED_FILES",
      timeout: 10,
    },
    { name: "types", pattern: "*.ts", run: ["sh", "-c", "true"], timeout: 10 },
    { name: "local", pattern: "*.ts", run: "./scripts/check.sh", timeout: 10 },
    { name: "builtin", pattern: "*.ts", run: "echo hi", timeout: 10 },
  ],
});

describe("cpilot doctor", () => {
  test("Claude Code settings that turn hooks off are a problem; the file that decides is named, after precedence", () => {
    const p = setup(JSON.stringify({ callbacks: [] }));
    symlinkSync(binary(), join(p.bin, "cpilot"));
    expect(cpilot(["install", "claude"], { cwd: p.dir, env: p.env }).code).toBe(0);
    expect(p.doctor().code).toBe(0);
    mkdirSync(join(p.home, ".claude"), { recursive: true });
    const user = join(p.home, ".claude", "settings.json");
    writeFileSync(user, '{ "disableAllHooks": true }');
    let r = p.doctor();
    expect(r.stdout).toContain(`Claude Code runs no hooks: "disableAllHooks": true in ${user}`);
    expect(r.code).toBe(1);
    // the project's local settings outrank the user's (Claude Code follows this: doctor-prove-live)
    writeFileSync(join(p.dir, ".claude", "settings.local.json"), '{ "disableAllHooks": false }');
    r = p.doctor();
    expect(r.stdout).not.toContain("disableAllHooks");
    expect(r.code).toBe(0);
  });

  test("a missing command is a problem (exit 1); found ones show where they are", () => {
    const p = setup(good);
    const r = p.doctor();
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("✗ lint");
    expect(r.stdout).toContain('"no-such-linter" is not on PATH');
    expect(r.stdout).toContain("✓ types");
    expect(r.stdout).toContain("/bin/sh");
    expect(r.stdout).toContain("✗ local");
    const report = p.json();
    expect(report.callbacks).toEqual([
      {
        name: "lint",
        command: "no-such-linter",
        status: "missing",
        detail: '"no-such-linter" is not on PATH',
      },
      expect.objectContaining({ name: "types", command: "sh", status: "ok" }),
      expect.objectContaining({ name: "local", command: "./scripts/check.sh", status: "missing" }),
      expect.objectContaining({ name: "builtin", command: "echo", status: "ok" }),
    ]);
    expect(report.problems).toBe(2);
    // fix both: the linter on PATH, the script executable
    writeFileSync(join(p.bin, "no-such-linter"), "#!/bin/sh\n");
    chmodSync(join(p.bin, "no-such-linter"), 0o755);
    mkdirSync(join(p.dir, "scripts"));
    writeFileSync(join(p.dir, "scripts", "check.sh"), "#!/bin/sh\n");
    chmodSync(join(p.dir, "scripts", "check.sh"), 0o755);
    const fixed = p.doctor();
    expect(fixed.code).toBe(0);
    expect(fixed.stdout).toContain("all good");
  });

  test("says whether a script config's value is kept between calls, and why not", () => {
    const plain = setup(
      'import { defineConfig } from "cpilot";\nexport default defineConfig({ callbacks: [] });\n',
      "callbacks.config.ts",
    );
    expect(plain.doctor().stdout).toContain("✓ plain data: its value is kept between calls");
    expect((plain.json().config as { kept: unknown }).kept).toBe(true);
    const live = setup(
      "export default { callbacks: process.env.CI ? [] : [] };\n",
      "callbacks.config.ts",
    );
    expect(live.doctor().stdout).toContain("- imported on every call: it uses process");
    expect((setup('{ "callbacks": [] }').json().config as { kept: unknown }).kept).toBeNull();
  });

  test("a broken config: the error with its key path, exit 1", () => {
    const p = setup(JSON.stringify({ callbacks: [{ name: "x", pattern: "*", run: "true" }] }));
    const r = p.doctor();
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("callbacks[0].timeout");
    const report = p.json();
    expect(report.config).toEqual({
      path: join(p.dir, "callbacks.config.json"),
      ok: false,
      error: expect.stringContaining("callbacks[0].timeout"),
      kept: null,
    });
  });

  test("a TypeScript config that does not even parse", () => {
    const p = setup("export default {{ broken", "callbacks.config.ts");
    const r = p.doctor("--json");
    expect(r.code).toBe(1);
    expect((JSON.parse(r.stdout) as { config: { ok: boolean } }).config.ok).toBe(false);
  });

  test("no config at all is a problem", () => {
    const p = setup(null);
    const r = p.doctor();
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("cpilot init");
  });

  test("an agent the project uses but cpilot is not wired into; then installed (hooks) or as MCP", () => {
    const p = setup(JSON.stringify({ callbacks: [] }));
    mkdirSync(join(p.dir, ".gemini"));
    mkdirSync(join(p.dir, ".cursor"));
    writeFileSync(join(p.bin, "codex"), "#!/bin/sh\n");
    chmodSync(join(p.bin, "codex"), 0o755);
    const before = p.json();
    expect(before.agents).toEqual([
      expect.objectContaining({
        agent: "gemini",
        hooks: { wired: false, path: null },
        problem: expect.stringContaining("cpilot install gemini"),
      }),
      expect.objectContaining({
        agent: "cursor",
        problem: expect.stringContaining("cpilot install cursor"),
      }),
      // found only on PATH: shown, not a problem
      expect.objectContaining({ agent: "codex", foundBy: [join(p.bin, "codex")], problem: null }),
    ]);
    expect(p.doctor().code).toBe(1);
    // cpilot on PATH, as the shared hook command `cpilot hook gemini` needs.
    symlinkSync(binary(), join(p.bin, "cpilot"));
    const untrusted = cpilot(["install", "gemini"], { cwd: p.dir, env: p.env });
    expect(untrusted.code).toBe(0);
    expect(untrusted.stderr).toMatch(/^\$ cpilot install gemini --trust-project$/m);
    // Gemini CLI trusts no folder by default: its hooks are written but do not run
    expect(p.json().agents).toContainEqual(
      expect.objectContaining({
        agent: "gemini",
        problem: expect.stringContaining("run `cpilot install gemini --trust-project`"),
      }),
    );
    const trusted = cpilot(["install", "gemini", "--trust-project"], { cwd: p.dir, env: p.env });
    expect(trusted.stderr).toContain("Gemini CLI now trusts this folder");
    expect(cpilot(["install", "cursor", "--mcp"], { cwd: p.dir, env: p.env }).code).toBe(0);
    const after = p.json();
    expect(after.agents).toEqual([
      expect.objectContaining({
        agent: "gemini",
        hooks: { wired: true, path: join(p.dir, ".gemini", "settings.json") },
        problem: null,
      }),
      expect.objectContaining({
        agent: "cursor",
        hooks: { wired: false, path: null },
        mcp: { wired: true, path: join(p.dir, ".cursor", "mcp.json") },
        problem: null,
      }),
      expect.objectContaining({ agent: "codex" }),
    ]);
    const table = p.doctor();
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/gemini\s+✓/);
  });

  test("a write gate hook that lets writes through where cpilot is missing (an older install) is a problem until reinstalled", () => {
    const p = setup(JSON.stringify({ callbacks: [] }));
    symlinkSync(binary(), join(p.bin, "cpilot"));
    const plain = (event: string, matcher: string, extra = {}) => ({
      [event]: [{ matcher, hooks: [{ type: "command", command: "cpilot hook qwen", ...extra }] }],
    });
    mkdirSync(join(p.dir, ".qwen"));
    writeFileSync(
      join(p.dir, ".qwen", "settings.json"),
      JSON.stringify({
        hooks: { ...plain("PreToolUse", "write_file"), ...plain("PostToolUse", "x") },
      }),
    );
    mkdirSync(join(p.dir, ".cursor"));
    writeFileSync(
      join(p.dir, ".cursor", "hooks.json"),
      JSON.stringify({ version: 1, hooks: { preToolUse: [{ command: "cpilot hook cursor" }] } }),
    );
    const problems = () =>
      Object.fromEntries(
        (p.json().agents as { agent: string; problem: string | null }[]).map((a) => [
          a.agent,
          a.problem,
        ]),
      );
    const before = problems();
    expect(before.qwen).toContain("does not fail closed: its PreToolUse hook lets a write through");
    expect(before.qwen).toContain("cpilot install qwen");
    expect(before.cursor).toContain("its preToolUse hook has no failClosed: true");
    for (const agent of ["qwen", "cursor"])
      expect(cpilot(["install", agent], { cwd: p.dir, env: p.env }).code).toBe(0);
    const after = problems();
    expect(after.qwen).toBeNull();
    expect(after.cursor).toBeNull();
  });

  test("hooks from before shell edits were seen (no shell tool after, no turn start) are a problem until reinstalled", () => {
    const p = setup(JSON.stringify({ callbacks: [] }));
    symlinkSync(binary(), join(p.bin, "cpilot"));
    const hook = (command: string) => [{ type: "command", command }];
    mkdirSync(join(p.dir, ".qwen"));
    // what `cpilot install qwen` wrote before: the edit tools only
    writeFileSync(
      join(p.dir, ".qwen", "settings.json"),
      JSON.stringify({
        hooks: {
          SessionStart: [{ hooks: hook("cpilot hook qwen") }],
          PreToolUse: [
            { matcher: "write_file|edit", hooks: hook(failClosedCommand("cpilot hook qwen")) },
          ],
          PostToolUse: [{ matcher: "write_file|edit", hooks: hook("cpilot hook qwen") }],
          Stop: [{ hooks: hook("cpilot hook qwen") }],
        },
      }),
    );
    const problem = () =>
      (p.json().agents as { agent: string; problem: string | null }[]).find(
        (a) => a.agent === "qwen",
      )?.problem;
    const before = problem();
    expect(before).toContain("are from an older cpilot");
    expect(before).toContain("UserPromptSubmit, PostToolUse on run_shell_command, SubagentStop");
    expect(before).toContain("run `cpilot install qwen` again");
    expect(cpilot(["install", "qwen"], { cwd: p.dir, env: p.env }).code).toBe(0);
    expect(problem()).toBeNull();
  });

  test("an agent whose home is moved by its variable (CODEX_HOME, CLAUDE_CONFIG_DIR) is found there", () => {
    const p = setup(JSON.stringify({ callbacks: [] }));
    const codexHome = join(p.home, "elsewhere", "codex");
    const claudeHome = join(p.home, "elsewhere", "claude");
    mkdirSync(codexHome, { recursive: true });
    mkdirSync(claudeHome, { recursive: true });
    const env = { ...p.env, CODEX_HOME: codexHome, CLAUDE_CONFIG_DIR: claudeHome };
    const r = cpilot(["doctor", "--json"], { cwd: p.dir, env });
    const agents = (JSON.parse(r.stdout) as { agents: { agent: string; foundBy: string[] }[] })
      .agents;
    expect(agents.find((a) => a.agent === "codex")?.foundBy).toEqual([codexHome]);
    expect(agents.find((a) => a.agent === "claude")?.foundBy).toEqual([claudeHome]);
  });
});

describe("cpilot doctor and package runners", () => {
  test("npx TOOL counts as missing until TOOL is in node_modules/.bin", () => {
    const { dir, json, bin } = setup(
      JSON.stringify({
        callbacks: [
          { name: "types", pattern: "*.ts", run: "npx --no-install tsc --noEmit", timeout: 10 },
          { name: "fmt", pattern: "*.ts", run: ["npx", "biome", "check", "{files}"], timeout: 10 },
        ],
      }),
    );
    writeFileSync(join(bin, "npx"), "#!/bin/sh\nexit 0\n");
    chmodSync(join(bin, "npx"), 0o755);
    const before = json().callbacks as { name: string; status: string; detail: string }[];
    expect(before.map((c) => c.status)).toEqual(["missing", "missing"]);
    expect(before[0]?.detail).toContain('"tsc" is not in node_modules/.bin');
    mkdirSync(join(dir, "node_modules", ".bin"), { recursive: true });
    writeFileSync(join(dir, "node_modules", ".bin", "tsc"), "");
    const after = json().callbacks as { name: string; status: string }[];
    expect(after.map((c) => c.status)).toEqual(["ok", "missing"]);
  });
});

describe("firstProgram", () => {
  test("skips assignments, unquotes", () => {
    expect(firstProgram("A=1 B='x y' eslint --fix")).toBe("eslint");
    expect(firstProgram(`"./my tool" a`)).toBe("./my tool");
    expect(firstProgram("   ")).toBeNull();
  });
});
