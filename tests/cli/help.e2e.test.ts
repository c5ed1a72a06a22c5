import { expect, test } from "bun:test";
import { cpilot } from "../helpers/binary.ts";
import { tempDir } from "../helpers/tmp.ts";

const COMMANDS = [
  "check",
  "list",
  "enable",
  "disable",
  "logs",
  "ps",
  "stop",
  "init",
  "add",
  "context",
  "gate",
  "install",
  "uninstall",
  "run",
  "hook",
  "mcp",
];

test("every command answers --help on stdout with exit 0, even outside a project", () => {
  const dir = tempDir();
  for (const command of COMMANDS) {
    const r = cpilot([command, "--help"], { cwd: dir });
    expect({ command, code: r.code }).toEqual({ command, code: 0 });
    expect(r.stdout.length).toBeGreaterThan(10);
    expect(r.stdout).toContain(command);
  }
  const top = cpilot(["--help"], { cwd: dir });
  expect(top.code).toBe(0);
  for (const command of COMMANDS) expect(top.stdout).toContain(command);
  const bare = cpilot([], { cwd: dir });
  expect(bare.code).toBe(2);
  expect(bare.stderr).toContain("usage: cpilot <command>");
});

test("every flag a command's usage names has a line of its own in its --help", () => {
  const dir = tempDir();
  for (const command of COMMANDS) {
    const help = cpilot([command, "--help"], { cwd: dir }).stdout;
    const usage = help
      .split("\n")
      .filter((l) => l.includes(`cpilot ${command}`) || l.startsWith("usage"));
    const flags = new Set(
      [...usage.join(" ").matchAll(/(?<![\w-])(--[a-z][a-z-]*)/g)].map((m) => m[1]!),
    );
    for (const flag of flags) {
      const described = help
        .split("\n")
        .some((l) =>
          new RegExp(`^\\s+(-\\w, )?${flag}(?![\\w-])(, -\\w)?( [A-Za-z_|.]+)?\\s{2,}\\S`).test(l),
        );
      expect({ command, flag, described }).toEqual({ command, flag, described: true });
    }
  }
});
