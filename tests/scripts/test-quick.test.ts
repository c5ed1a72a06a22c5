/** `npm run test:quick` picks files by a rule: these are the cases the rule must get right. */
import { expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { slowReason } from "../../scripts/test-quick.ts";

const ROOT = join(import.meta.dir, "..", "..");

test("a file that starts a real agent CLI, or lives under a slow folder, is left out", () => {
  const claude = 'import { CLAUDE_BIN } from "../../support/claude-cli.ts";\n';
  expect(slowReason("tests/agents/claude/e2e.test.ts", claude)).toContain("claude-cli.ts");
  expect(
    slowReason("tests/support/x.test.ts", 'import { a } from "./claude-cli.ts";'),
  ).toBeDefined();
  // the shared set-up of the Claude Code tests runs claude too
  const project = 'import { claudeProjects } from "../../support/claude-project.ts";\n';
  expect(slowReason("tests/agents/claude/subagent.test.ts", project)).toContain(
    "claude-project.ts",
  );
  expect(
    slowReason("tests/agents/gemini/e2e.test.ts", 'import { g } from "./_gemini-cli.ts";'),
  ).toContain("_gemini-cli.ts");
  expect(slowReason("tests/release/version.test.ts", "")).toContain("tests/release/");
  expect(slowReason("tests/attacks/gate.e2e.test.ts", "")).toContain("tests/attacks/");
  expect(slowReason("tests/scripts/bench.test.ts", "")).toBeDefined();
});

test("anything else, e2e tests of the binary included, is in the quick run", () => {
  const fake = 'import { startFakeAnthropic } from "../../support/fake-anthropic.ts";\n';
  expect(slowReason("tests/cli/check.e2e.test.ts", fake)).toBeUndefined();
  expect(
    slowReason("tests/agents/claude/hook-post.test.ts", "// claude-cli.ts in a comment\n"),
  ).toBeUndefined();
});

test("--list names this repo's real-agent suites as skipped, and runs nothing", () => {
  const run = spawnSync(process.execPath, ["scripts/test-quick.ts", "--list"], {
    cwd: ROOT,
    encoding: "utf8",
  });
  expect(run.status).toBe(0);
  const skipped = run.stdout.slice(run.stdout.indexOf("skipped"));
  for (const file of [
    "tests/agents/claude/e2e.test.ts",
    "tests/agents/claude/run-e2e.test.ts",
    "tests/agents/gemini/e2e.test.ts",
    "tests/mcp/claude.e2e.test.ts",
  ])
    expect(skipped).toContain(file);
  expect(run.stdout.slice(0, run.stdout.indexOf("skipped"))).toContain("tests/layers.test.ts");
});
