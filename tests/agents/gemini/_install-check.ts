/** install → install again → uninstall → uninstall again, for one agent, through the binary. */
import { expect } from "bun:test";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { tempDir } from "../../helpers/tmp.ts";
import { cpilot } from "./_agent-project.ts";

/**
 * Check idempotence and that other settings survive. `file` is relative to the project;
 * `others` is what the file held before (with the user's own hooks); `ours` checks the
 * installed file.
 */
export function checkInstallCycle(
  agent: string,
  file: string,
  others: Record<string, unknown> | null,
  ours: (installed: Record<string, unknown>) => void,
) {
  const dir = tempDir(`cpilot-install-${agent}-`, { git: true });
  try {
    writeFileSync(
      join(dir, "callbacks.config.json"),
      JSON.stringify({ callbacks: [{ name: "t", pattern: "*", run: "true", timeout: 1200 }] }),
    );
    const path = join(dir, file);
    if (others !== null) {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, JSON.stringify(others, null, 2));
    }
    const first = cpilot(["install", agent], { cwd: dir });
    expect(first.code).toBe(0);
    const installed = readFileSync(path, "utf8");
    ours(JSON.parse(installed) as Record<string, unknown>);
    const second = cpilot(["install", agent], { cwd: dir });
    expect(second.code).toBe(0);
    expect(second.stderr + second.stdout).toContain("nothing changed");
    expect(readFileSync(path, "utf8")).toBe(installed);
    const removed = cpilot(["uninstall", agent], { cwd: dir });
    expect(removed.code).toBe(0);
    if (others === null) {
      const left = existsSync(path)
        ? (JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>)
        : {};
      expect(left.hooks ?? {}).toEqual({});
    } else expect(JSON.parse(readFileSync(path, "utf8"))).toEqual(others);
    const again = cpilot(["uninstall", agent], { cwd: dir });
    expect(again.code).toBe(0);
    expect(again.stderr + again.stdout).toContain("nothing changed");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A settings file with cpilot's broken JSON must be refused, not overwritten. */
export function checkRefusesBadJson(agent: string, file: string) {
  const dir = tempDir(`cpilot-install-${agent}-`);
  try {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), "{ not json");
    const r = cpilot(["install", agent], { cwd: dir });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("not valid JSON");
    expect(readFileSync(join(dir, file), "utf8")).toBe("{ not json");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
