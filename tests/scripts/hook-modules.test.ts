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
  expect(own).toContain("src/hook/call.ts");
  expect(own).toContain("src/agents/claude/agent.ts");
  expect(own).toContain("src/agents/claude/protocol.ts");
  const loaded = AGENT_NAMES.filter((name) =>
    own.some((path) => path.startsWith(`src/agents/${name}/`)),
  );
  expect(loaded).toEqual(["claude"]);
  // The callback (`true`) printed nothing: its diagnostics need no parser.
  expect(own).toContain("src/diagnostics/baseline/compare.ts");
  expect(own.filter((path) => path.startsWith("src/diagnostics/parsers/"))).toEqual([]);
  expect(run.stdout).toMatch(/^modules: \d+ of the checkout/m);
});

test("a Claude PostToolUse call crosses at most 13 files in 5 folders outside the engine, Claude's protocol file its only one of Claude's", () => {
  const run = spawnSync(process.execPath, [join(ROOT, "scripts", "hook-modules.ts"), "--calls"], {
    encoding: "utf8",
  });
  expect(run.stderr).toBe("");
  expect(run.status).toBe(0);
  const head =
    /^hook path outside the engine, diagnostics and their base: (\d+) files in (\d+) folders$/m.exec(
      run.stdout,
    );
  expect(head).not.toBeNull();
  const files = run.stdout
    .slice((head?.index ?? 0) + (head?.[0].length ?? 0))
    .split("\n")
    .filter((line) => line.startsWith("  "))
    .map((line) => line.trim());
  expect(files.length).toBe(Number(head?.[1]));
  // 13: the reply's size budget (fit-reply), the turn record (an edit tool's write is
  // noted in it) and the paths named from the agent's folder (seen-from: a package's
  // config judges in its own folder) are steps of their own
  expect(files.length).toBeLessThanOrEqual(13);
  expect(Number(head?.[2])).toBeLessThanOrEqual(5);
  // The event is routed by the pipeline: Claude's folder only reads the payload and words the reply.
  expect(files.filter((f) => f.startsWith("src/agents/"))).toEqual([
    "src/agents/claude/protocol.ts",
  ]);
  expect(files).toContain("src/hook/call.ts");
  expect(files).toContain("src/hook/after-edits.ts");
});

/** The files a Claude call of `event` crosses outside the engine, as hook-modules.ts prints them. */
function crossed(event: string): string[] {
  const run = spawnSync(
    process.execPath,
    [join(ROOT, "scripts", "hook-modules.ts"), "--calls", "--event", event],
    { encoding: "utf8" },
  );
  expect(run.stderr).toBe("");
  expect(run.status).toBe(0);
  const at = run.stdout.indexOf("hook path outside the engine");
  expect(at).toBeGreaterThan(-1);
  return run.stdout
    .slice(at)
    .split("\n")
    .filter((line) => line.startsWith("  "))
    .map((line) => line.trim());
}

test("a PreToolUse and a Stop are routed by the pipeline to its steps; Claude's folder only words the reply", () => {
  const pre = crossed("PreToolUse");
  expect(pre).toContain("src/hook/gate-all.ts");
  expect(pre.filter((f) => f.startsWith("src/agents/"))).toEqual([
    "src/agents/claude/pre-tool-use.ts",
    "src/agents/claude/protocol.ts",
  ]);
  const stop = crossed("Stop");
  expect(stop).toContain("src/hook/shell-check.ts");
  expect(stop).toContain("src/hook/stop-gate.ts");
  // Claude adds the context updates of its final message, read from its transcript.
  expect(stop.filter((f) => f.startsWith("src/agents/"))).toEqual([
    "src/agents/claude/context-at-stop.ts",
    "src/agents/claude/protocol.ts",
    "src/agents/claude/transcript.ts",
  ]);
});
