/**
 * `cpilot doctor --prove claude` with the real, pinned Claude Code CLI: the binary starts it
 * headless on its own scripted model, in a network namespace with only a loopback where the
 * machine allows one (so a request that tried to leave would fail, and the proof's proxy
 * would count it), with a temp HOME standing for the person's own settings.
 */
import { describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { GEMINI_BIN } from "../agents/gemini/_gemini-cli.ts";
import { cpilotBinary, pathWithCpilot, runtimeEnv } from "../helpers/binary.ts";
import { tempDir } from "../helpers/tmp.ts";
import { nodeBin } from "../support/agent-cli.ts";
import { CLAUDE_BIN } from "../support/claude-cli.ts";
import { netnsAvailable } from "../support/netns.ts";

/** A PATH with `cpilot`, `claude` and `gemini` on it, as on a machine that has them. */
function pathWithClaude(): string {
  const dir = tempDir("cpilot-prove-bin-");
  symlinkSync(CLAUDE_BIN, join(dir, "claude"));
  symlinkSync(GEMINI_BIN, join(dir, "gemini"));
  symlinkSync(nodeBin("qwen"), join(dir, "qwen"));
  symlinkSync(nodeBin("copilot"), join(dir, "copilot"));
  symlinkSync(nodeBin("opencode"), join(dir, "opencode"));
  symlinkSync(nodeBin("codex"), join(dir, "codex"));
  return pathWithCpilot(`${dir}:/usr/local/bin:/usr/bin:/bin`);
}

/** A temp HOME whose Claude Code user settings are `settings`. */
function userSettings(settings: Record<string, unknown>): string {
  const home = tempDir("cpilot-prove-home-");
  mkdirSync(join(home, ".claude"));
  writeFileSync(join(home, ".claude", "settings.json"), JSON.stringify(settings));
  return home;
}

function prove(
  args: string[],
  home: string,
  path = pathWithClaude(),
  localSettings?: Record<string, unknown>,
  root = tempDir("cpilot-prove-live-", { git: true }),
) {
  writeFileSync(join(root, "callbacks.config.json"), '{"callbacks":[]}\n');
  if (localSettings !== undefined) {
    mkdirSync(join(root, ".claude"));
    writeFileSync(join(root, ".claude", "settings.local.json"), JSON.stringify(localSettings));
  }
  const argv = [cpilotBinary(), "doctor", "--prove", ...args];
  const isolated = netnsAvailable()
    ? ["unshare", "-rn", "sh", "-c", 'ip link set lo up && exec "$@"', "sh", ...argv]
    : argv;
  const r = spawnSync(isolated[0] as string, isolated.slice(1), {
    cwd: root,
    // PWD as a shell sets it
    env: {
      PATH: path,
      HOME: home,
      PWD: root,
      COPILOT_HOME: join(home, ".copilot"),
      ...runtimeEnv(),
    },
    encoding: "utf8",
    timeout: 300_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("cpilot doctor --prove claude, with Claude Code itself", () => {
  test("a failure, a resync and a refusal reach the model; nothing leaves 127.0.0.1; exit 0", () => {
    const r = prove(["claude"], tempDir("cpilot-prove-home-"));
    expect(r.stdout).toMatch(/Claude Code \d+\.\d+\.\d+ ran headless/);
    expect(r.stdout).toContain(
      "✓ a failing check reaches the model: cpilot-proof: this check fails",
    );
    expect(r.stdout).toContain("✓ a resync (a formatter's rewrite) reaches it");
    expect(r.stdout).toContain("CPILOT PROOF RESYNC");
    expect(r.stdout).toContain("✓ a gate refusal reaches it");
    expect(r.stdout).toContain("no request left 127.0.0.1");
    expect(r.stdout).not.toContain("✗");
    expect(r.code).toBe(0);
  }, 320_000);

  test("the person's settings turn hooks off: nothing reaches the model, and the file that did it is named", () => {
    const home = tempDir("cpilot-prove-home-");
    mkdirSync(join(home, ".claude"));
    const settings = join(home, ".claude", "settings.json");
    writeFileSync(settings, '{ "disableAllHooks": true }\n');
    const r = prove(["claude"], home);
    expect(r.stdout).toContain(
      "✗ a failing check reaches the model: the model got only: File created",
    );
    expect(r.stdout).toContain(`"disableAllHooks": true in ${settings}`);
    expect(r.stdout).toContain("✗ a gate refusal reaches it");
    expect(r.stdout).toContain("✗ the refused file is not written");
    expect(r.code).toBe(1);
  }, 320_000);

  test("settings precedence: the project's local settings turn hooks back on over the person's", () => {
    const home = userSettings({ disableAllHooks: true });
    const r = prove(["claude"], home, pathWithClaude(), { disableAllHooks: false });
    expect(r.stdout).toContain("this project's settings were used (without their hooks)");
    expect(r.stdout).toContain("✓ a failing check reaches the model");
    expect(r.code).toBe(0);
  }, 320_000);

  test("settings precedence: the project's local settings turn hooks off; that file is named", () => {
    const home = userSettings({ disableAllHooks: false });
    const r = prove(["claude"], home, pathWithClaude(), { disableAllHooks: true });
    expect(r.stdout).toContain("✗ a failing check reaches the model");
    expect(r.stdout).toMatch(/"disableAllHooks": true in \S*\/\.claude\/settings\.local\.json/);
    expect(r.stdout).not.toContain("cpilot-proof-flags");
    expect(r.code).toBe(1);
  }, 320_000);

  test("--agent-bin runs a Claude Code that is not on PATH", () => {
    const r = prove(
      ["claude", "--agent-bin", CLAUDE_BIN],
      tempDir("cpilot-prove-home-"),
      pathWithCpilot(),
    );
    expect(r.stdout).toMatch(/Claude Code \d+\.\d+\.\d+ ran headless/);
    expect(r.code).toBe(0);
  }, 320_000);

  test("npm route: --agent-bin runs the hook command install wrote, through node_modules' shim", () => {
    // A project with cpilot as an npm dependency: the package's sh shim and this platform's
    // binary where npm puts them, and no cpilot on PATH.
    const root = tempDir("cpilot-prove-live-", { git: true });
    writeFileSync(
      join(root, "package.json"),
      JSON.stringify({ private: true, devDependencies: { cpilot: "0.1.0" } }),
    );
    const modules = join(root, "node_modules");
    mkdirSync(join(modules, "cpilot", "bin"), { recursive: true });
    mkdirSync(join(modules, "@cpilot", "linux-x64"), { recursive: true });
    symlinkSync(
      join(import.meta.dir, "..", "..", "npm", "cpilot", "bin", "cpilot.sh"),
      join(modules, "cpilot", "bin", "cpilot.sh"),
    );
    symlinkSync(cpilotBinary(), join(modules, "@cpilot", "linux-x64", "cpilot"));
    const r = prove(
      ["claude", "--agent-bin", CLAUDE_BIN],
      tempDir("cpilot-prove-home-"),
      "/usr/local/bin:/usr/bin:/bin",
      undefined,
      root,
    );
    expect(r.stdout).toContain(
      'hook command: "$CLAUDE_PROJECT_DIR"/node_modules/cpilot/bin/cpilot.sh hook claude (as `cpilot install` writes it)',
    );
    expect(r.stdout).toContain("✓ a failing check reaches the model");
    expect(r.stdout).toContain("✓ a gate refusal reaches it");
    expect(r.code).toBe(0);
  }, 320_000);

  test("an --agent-bin that is not Claude Code: the model was never asked, and the proof fails", () => {
    const r = prove(["claude", "--agent-bin", "/bin/false"], tempDir("cpilot-prove-home-"));
    expect(r.stdout).toContain(
      "✗ a failing check reaches the model: Claude Code never asked the model (it exited 1)",
    );
    expect(r.stdout).toContain("Claude Code (/bin/false) never asked cpilot's model (it exited 1)");
    expect(r.code).toBe(1);
  });

  test("no Claude Code CLI: the hook-level proof, and the report says so", () => {
    const home = tempDir("cpilot-prove-home-");
    const r = prove(["claude", "--agent-bin", "/nowhere/claude"], home, pathWithCpilot());
    expect(r.stdout).toContain("hook-level proof only");
    expect(r.stdout).toContain("note: no Claude Code CLI at /nowhere/claude");
    expect(r.stdout).not.toContain("ran headless");
  });
});

describe("cpilot doctor --prove gemini, with Gemini CLI itself", () => {
  test("a project the person trusts: a failure, a resync and a refusal reach the model", () => {
    const root = tempDir("cpilot-prove-live-", { git: true });
    const home = tempDir("cpilot-prove-home-");
    mkdirSync(join(home, ".gemini"));
    writeFileSync(
      join(home, ".gemini", "trustedFolders.json"),
      JSON.stringify({ [root]: "TRUST_FOLDER" }),
    );
    const r = prove(["gemini"], home, pathWithClaude(), undefined, root);
    expect(r.stdout).toMatch(/Gemini CLI \d+\.\d+\.\d+ ran headless/);
    expect(r.stdout).toContain(
      "✓ a failing check reaches the model: cpilot-proof: this check fails",
    );
    expect(r.stdout).toContain("✓ a resync (a formatter's rewrite) reaches it");
    expect(r.stdout).toContain("✓ a gate refusal reaches it");
    expect(r.stdout).toContain("no request left 127.0.0.1");
    expect(r.code).toBe(0);
  }, 320_000);

  test("a project Gemini CLI does not trust: nothing reaches the model, and the trust is named", () => {
    const r = prove(["gemini"], tempDir("cpilot-prove-home-"));
    expect(r.stdout).toContain("✗ a failing check reaches the model");
    expect(r.stdout).toContain("Gemini CLI does not trust");
    expect(r.code).toBe(1);
  }, 320_000);
});

describe("cpilot doctor --prove qwen, with Qwen Code itself", () => {
  test("a failure, a resync and a refusal reach the model; nothing leaves 127.0.0.1", () => {
    const r = prove(["qwen"], tempDir("cpilot-prove-home-"));
    expect(r.stdout).toMatch(/Qwen Code \d+\.\d+\.\d+ ran headless/);
    expect(r.stdout).toContain(
      "✓ a failing check reaches the model: cpilot-proof: this check fails",
    );
    expect(r.stdout).toContain("✓ a resync (a formatter's rewrite) reaches it");
    expect(r.stdout).toContain("✓ a gate refusal reaches it");
    expect(r.stdout).toContain("no request left 127.0.0.1");
    expect(r.code).toBe(0);
  }, 320_000);
});

describe("cpilot doctor --prove copilot, with Copilot CLI itself", () => {
  test("a project Copilot trusts: a failure, a resync and a refusal reach the model", () => {
    const root = tempDir("cpilot-prove-live-", { git: true });
    const home = tempDir("cpilot-prove-home-");
    mkdirSync(join(home, ".copilot"));
    writeFileSync(
      join(home, ".copilot", "config.json"),
      JSON.stringify({ trustedFolders: [root] }),
    );
    const r = prove(["copilot"], home, pathWithClaude(), undefined, root);
    expect(r.stdout).toMatch(/Copilot CLI \d+\.\d+\.\d+ ran headless/);
    expect(r.stdout).toContain(
      "✓ a failing check reaches the model: cpilot-proof: this check fails",
    );
    expect(r.stdout).toContain("✓ a resync (a formatter's rewrite) reaches it");
    expect(r.stdout).toContain("✓ a gate refusal reaches it");
    expect(r.stdout).toContain("no request left 127.0.0.1");
    expect(r.code).toBe(0);
  }, 320_000);

  test("a project Copilot does not trust: nothing reaches the model, and the step is named", () => {
    const r = prove(["copilot"], tempDir("cpilot-prove-home-"));
    expect(r.stdout).toContain("✗ a failing check reaches the model");
    expect(r.stdout).toContain("cpilot install copilot --trust-project");
    expect(r.code).toBe(1);
  }, 320_000);
});

describe("cpilot doctor --prove opencode, with OpenCode itself", () => {
  // OpenCode takes its project from PWD, which a shell sets to the person's project (prove()
  // passes it): without the proof setting PWD, its first write failed in the wrong folder
  test("a failure, a resync and a refusal reach the model; no request left 127.0.0.1", () => {
    const r = prove(["opencode"], tempDir("cpilot-prove-home-"));
    expect(r.stdout).toMatch(/OpenCode \d+\.\d+\.\d+ ran headless/);
    expect(r.stdout).toContain(
      "✓ a failing check reaches the model: cpilot-proof: this check fails",
    );
    expect(r.stdout).toContain("✓ a resync (a formatter's rewrite) reaches it");
    expect(r.stdout).toContain("✓ a gate refusal reaches it");
    expect(r.stdout).toContain("no request left 127.0.0.1");
    expect(r.code).toBe(0);
  }, 320_000);
});

describe("cpilot doctor --prove codex, with Codex CLI itself", () => {
  /** A temp HOME whose ~/.codex/config.toml is `toml`. */
  function codexHome(toml: string): { home: string; config: string } {
    const home = tempDir("cpilot-prove-home-");
    mkdirSync(join(home, ".codex"));
    const config = join(home, ".codex", "config.toml");
    writeFileSync(config, toml);
    return { home, config };
  }

  test("your settings copied, trust given in the copy: a failure, a resync and a refusal reach the model; your files untouched", () => {
    const toml = 'model = "o3"\n\n[features]\nhooks = true\n';
    const { home, config } = codexHome(toml);
    const r = prove(["codex"], home);
    expect(r.stdout).toMatch(/Codex CLI \d+\.\d+\.\d+ ran headless/);
    expect(r.stdout).toContain(`your Codex settings (${config}) were copied`);
    expect(r.stdout).toContain(
      "✓ a failing check reaches the model: cpilot-proof: this check fails",
    );
    expect(r.stdout).toContain("✓ a resync (a formatter's rewrite) reaches it");
    expect(r.stdout).toContain("CPILOT PROOF RESYNC");
    expect(r.stdout).toContain("✓ a gate refusal reaches it");
    expect(r.stdout).toContain("no request left 127.0.0.1");
    expect(r.stdout).not.toContain("✗");
    expect(r.code).toBe(0);
    // the trust went into the copy only
    expect(readFileSync(config, "utf8")).toBe(toml);
    expect(readdirSync(join(home, ".codex"))).toEqual(["config.toml"]);
  }, 320_000);

  test("your config.toml turns hooks off: nothing reaches the model, and the file is named", () => {
    const { home, config } = codexHome("[features]\nhooks = false\n");
    const r = prove(["codex"], home);
    expect(r.stdout).toMatch(/Codex CLI \d+\.\d+\.\d+ ran headless/);
    expect(r.stdout).toContain("✗ a failing check reaches the model: the model got only");
    expect(r.stdout).toContain(`hooks = false under [features] in ${config}`);
    expect(r.stdout).toContain("✗ a gate refusal reaches it");
    expect(r.stdout).toContain("✗ the refused file is not written");
    expect(r.code).toBe(1);
  }, 320_000);

  test("settings precedence: the project's .codex/config.toml turns hooks off over yours; that file is named", () => {
    const { home } = codexHome("[features]\nhooks = true\n");
    const root = tempDir("cpilot-prove-live-", { git: true });
    mkdirSync(join(root, ".codex"));
    writeFileSync(join(root, ".codex", "config.toml"), "[features]\nhooks = false\n");
    const r = prove(["codex"], home, pathWithClaude(), undefined, root);
    expect(r.stdout).toContain("this project's settings were used (without their hooks)");
    expect(r.stdout).toContain("✗ a failing check reaches the model");
    expect(r.stdout).toContain(
      `hooks = false under [features] in ${join(root, ".codex", "config.toml")}`,
    );
    expect(r.code).toBe(1);
  }, 320_000);

  test("no Codex CLI on PATH: the hook-level proof, and the report says so", () => {
    const root = tempDir("cpilot-prove-live-", { git: true });
    const r = prove(["codex"], tempDir("cpilot-prove-home-"), pathWithCpilot(), undefined, root);
    expect(r.stdout).toContain("hook-level proof only");
    expect(r.stdout).toContain("Codex CLI's CLI (codex) is not on PATH");
    expect(r.stdout).not.toContain("ran headless");
  });
});

describe("agents cpilot cannot run on its own model yet", () => {
  test("the hook-level proof, and the report says Cursor itself was not started", () => {
    const r = prove(["cursor"], tempDir("cpilot-prove-home-"), pathWithCpilot());
    expect(r.stdout).toContain("hook-level proof only");
    expect(r.stdout).toContain("so Cursor itself was not started");
    expect(r.stdout).not.toContain("ran headless");
  });
});
