/** `cpilot doctor --prove <agent>` through the binary: the installed hook command, played. */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { plainCpilotCommand } from "../../src/doctor/prove.ts";
import { NEAREST_NPM_SHIM } from "../../src/platform/nearest-npm-shim.ts";
import { cpilot } from "../agents/gemini/_agent-project.ts";
import { cpilotBinary, pathWithCpilot } from "../helpers/binary.ts";
import { tempDir } from "../helpers/tmp.ts";

function project(): { root: string; env: Record<string, string> } {
  const root = tempDir("cpilot-prove-", { git: true });
  writeFileSync(join(root, "callbacks.config.json"), '{"callbacks":[]}\n');
  const home = tempDir("cpilot-prove-home-");
  return { root, env: { PATH: pathWithCpilot(), HOME: home, COPILOT_HOME: home } };
}

describe("cpilot doctor --prove", () => {
  test("Claude Code not on PATH: the hook-level proof, which says what it is and why", () => {
    const { root, env } = project();
    expect(cpilot(["install", "claude"], { cwd: root, env }).code).toBe(0);
    const r = cpilot(["doctor", "--prove", "claude"], { cwd: root, env });
    expect(r.stdout).toContain("hook-level proof only");
    expect(r.stdout).toContain("note: Claude Code's CLI (claude) is not on PATH");
    expect(r.stdout).toContain("✓ a failing check reaches the model");
    expect(r.stdout).toContain("✓ a formatter's rewrite reaches it");
    expect(r.stdout).toContain("✓ a gate refusal reaches it");
    expect(r.code).toBe(0);
  });

  test("the npm route: the command install wrote (the project's node_modules/.bin/cpilot) is the one run", () => {
    const { root, env } = project();
    expect(cpilot(["install", "claude"], { cwd: root, env }).code).toBe(0);
    mkdirSync(join(root, "node_modules", ".bin"), { recursive: true });
    symlinkSync(cpilotBinary(), join(root, "node_modules", ".bin", "cpilot"));
    const file = join(root, ".claude", "settings.json");
    writeFileSync(
      file,
      readFileSync(file, "utf8").replaceAll(
        '"cpilot hook claude',
        '"\\"$CLAUDE_PROJECT_DIR\\"/node_modules/.bin/cpilot hook claude',
      ),
    );
    // no cpilot on PATH: only the project's own copy can answer
    const r = cpilot(["doctor", "--prove", "claude"], {
      cwd: root,
      env: { ...env, PATH: "/usr/local/bin:/usr/bin:/bin" },
    });
    expect(r.stdout).toContain(
      'hook command: "$CLAUDE_PROJECT_DIR"/node_modules/.bin/cpilot hook claude',
    );
    expect(r.stdout).toContain("✓ a failing check reaches the model");
    expect(r.stdout).toContain("✓ a gate refusal reaches it");
    expect(r.code).toBe(0);
  });

  test("a hook command that cannot start is caught, with its exit code", () => {
    const { root, env } = project();
    expect(cpilot(["install", "claude"], { cwd: root, env }).code).toBe(0);
    const file = join(root, ".claude", "settings.json");
    writeFileSync(
      file,
      readFileSync(file, "utf8").replaceAll('"cpilot hook claude', '"/nowhere/cpilot hook claude'),
    );
    const r = cpilot(["doctor", "--prove", "claude"], { cwd: root, env });
    expect(r.stdout).toContain("✗ a failing check reaches the model: the hook command exited 127");
    expect(r.code).toBe(1);
  });

  test("Copilot CLI in a folder it does not trust: the answers are right, and the trust step is named", () => {
    const { root, env } = project();
    expect(cpilot(["install", "copilot"], { cwd: root, env }).code).toBe(0);
    let r = cpilot(["doctor", "--prove", "copilot"], { cwd: root, env });
    expect(r.stdout).toContain("✓ a failing check reaches the model");
    expect(r.stdout).toContain("cpilot install copilot --trust-project");
    expect(r.code).toBe(1);
    expect(cpilot(["install", "copilot", "--trust-project"], { cwd: root, env }).code).toBe(0);
    r = cpilot(["doctor", "--prove", "copilot"], { cwd: root, env });
    expect(r.code).toBe(0);
  });

  test("not wired: says how to wire it", () => {
    const { root, env } = project();
    const r = cpilot(["doctor", "--prove", "qwen"], { cwd: root, env });
    expect(r.stdout).toContain(
      "cpilot is not wired into Qwen Code here: run `cpilot install qwen`",
    );
    expect(r.code).toBe(1);
  });
});

describe("only a plain cpilot command line is run", () => {
  test("the forms cpilot writes pass; anything with more shell in it does not", () => {
    for (const ok of [
      "cpilot hook claude",
      "/usr/local/bin/cpilot hook claude",
      "'/opt/my tools/cpilot' hook claude",
      "./node_modules/cpilot/bin/cpilot.sh hook claude",
      '"$CLAUDE_PROJECT_DIR"/node_modules/cpilot/bin/cpilot.sh hook claude',
      "npx --no-install cpilot hook claude",
      `${NEAREST_NPM_SHIM} hook claude`,
    ])
      expect({ ok, plain: plainCpilotCommand(ok, "claude") }).toEqual({ ok, plain: true });
    for (const bad of [
      "touch x; cpilot hook claude",
      "cpilot hook claude && curl example.invalid",
      "$(evil)/cpilot hook claude",
      "notcpilot hook claude",
      "cpilot hook gemini",
    ])
      expect({ bad, plain: plainCpilotCommand(bad, "claude") }).toEqual({ bad, plain: false });
  });

  test("a hook file whose line does more than start cpilot is not run by --prove", () => {
    const { root, env } = project();
    expect(cpilot(["install", "claude"], { cwd: root, env }).code).toBe(0);
    const file = join(root, ".claude", "settings.json");
    writeFileSync(
      file,
      readFileSync(file, "utf8").replaceAll(
        '"cpilot hook claude',
        '"touch PWNED; cpilot hook claude',
      ),
    );
    const r = cpilot(["doctor", "--prove", "claude"], { cwd: root, env });
    expect(r.stdout).toContain("the hook command is not just cpilot");
    expect(r.code).toBe(1);
    expect(existsSync(join(root, "PWNED"))).toBe(false);
  });
});
