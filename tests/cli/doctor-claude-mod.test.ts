/** `cpilot doctor` on Claude Code's format-on-save mod (`install claude --mod`), through the built binary. */
import { afterEach, expect, test } from "bun:test";
import { chmodSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cpilot } from "../agents/claude/_helpers.ts";
import { tempDir } from "../helpers/tmp.ts";

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

function setup() {
  const dir = tempDir("cpilot-doctor-mod-", { git: true });
  const home = tempDir("cpilot-doctor-mod-home-");
  const bin = tempDir("cpilot-doctor-mod-bin-");
  dirs.push(dir, home, bin);
  writeFileSync(join(dir, "callbacks.config.json"), JSON.stringify({ callbacks: [] }));
  const claude = (version: string) => {
    writeFileSync(join(bin, "claude"), `#!/bin/sh\necho "${version} (Claude Code)"\n`);
    chmodSync(join(bin, "claude"), 0o755);
  };
  claude("2.1.330");
  const env = { HOME: home, PATH: `${bin}:/usr/bin:/bin` };
  const doctor = () => cpilot(["doctor"], { cwd: dir, env });
  const mod = join(home, ".claude", "cpilot-format");
  const settings = join(home, ".claude", "settings.json");
  return { dir, env, doctor, claude, mod, settings };
}

test("doctor says the mod is installed and loaded, and what to do when it is not", () => {
  const t = setup();
  expect(t.doctor().stdout).not.toContain("format-on-save mod");
  expect(cpilot(["install", "claude", "--mod"], { cwd: t.dir, env: t.env }).code).toBe(0);
  const ok = t.doctor();
  expect(ok.stdout).toContain(`✓ format-on-save mod in ${t.mod}, loaded by Claude Code 2.1.330`);
  expect(ok.code).toBe(0);

  // Claude Code went back to a version that loads no mods
  t.claude("2.1.200");
  const old = t.doctor();
  expect(old.stdout).toContain("Claude Code 2.1.200 loads no mods");
  expect(old.code).toBe(1);
  t.claude("2.1.332");

  // an update (or another tool) rewrote the settings without the mod's folder
  const kept = readFileSync(t.settings, "utf8");
  writeFileSync(t.settings, "{}\n");
  const dropped = t.doctor();
  expect(dropped.stdout).toContain("does not name");
  expect(dropped.stdout).toContain("run `cpilot install claude --mod` again");
  expect(dropped.code).toBe(1);
  writeFileSync(t.settings, kept);

  // the mod's files name another cpilot (this one was moved or updated)
  const register = join(t.mod, "hooks", "register.ts");
  writeFileSync(register, readFileSync(register, "utf8").replace("_format-call", "_gone"));
  expect(t.doctor().stdout).toContain("its files are from another cpilot");

  // the folder is gone while the settings still name it
  rmSync(t.mod, { recursive: true, force: true });
  expect(t.doctor().stdout).toContain("which holds no cpilot mod");

  // installed again: working
  expect(cpilot(["install", "claude", "--mod"], { cwd: t.dir, env: t.env }).code).toBe(0);
  expect(t.doctor().stdout).toContain("✓ format-on-save mod in");
});
