/**
 * scripts/hook-modules.ts measures what a Claude PostToolUse hook call loads; the hook path
 * must load Claude's folder and no other agent's (the registry loads each on demand), and
 * no output parser for a callback that printed nothing.
 */
import { expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { AGENT_NAMES } from "../../src/agents/registry.ts";

const ROOT = join(import.meta.dir, "..", "..");

test("a Claude hook call loads Claude's agent folder and no other agent's, and no output parser for a quiet callback", () => {
  const run = spawnSync(process.execPath, [join(ROOT, "scripts", "hook-modules.ts"), "--list"], {
    encoding: "utf8",
  });
  expect(run.stderr).toBe("");
  expect(run.status).toBe(0);
  const own = run.stdout
    .split("\n")
    .filter((line) => line.startsWith("  src/") || line.startsWith("  main.ts"))
    .map((line) => line.trim());
  expect(own).toContain("src/cli/hook.ts");
  expect(own).toContain("src/hook/call.ts");
  expect(own).toContain("src/agents/claude/agent.ts");
  expect(own).toContain("src/agents/claude/post-tool-use.ts");
  const loaded = AGENT_NAMES.filter((name) =>
    own.some((path) => path.startsWith(`src/agents/${name}/`)),
  );
  expect(loaded).toEqual(["claude"]);
  // The callback (`true`) printed nothing: its diagnostics need no parser.
  expect(own).toContain("src/diagnostics/baseline/compare.ts");
  expect(own.filter((path) => path.startsWith("src/diagnostics/parsers/"))).toEqual([]);
  expect(run.stdout).toMatch(/^modules: \d+ of the checkout/m);
});
