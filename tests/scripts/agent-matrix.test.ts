/** The agent matrix of docs/agents.md: the version it names, and rows kept on a partial run. */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { renderMatrix } from "../../scripts/agent-matrix.ts";
import { testedVersion } from "../support/agent-matrix.ts";

const installed = (pkg: string): string =>
  (
    JSON.parse(
      readFileSync(join(import.meta.dir, "../../node_modules", pkg, "package.json"), "utf8"),
    ) as { version: string }
  ).version;

test("the version recorded is the installed CLI's, not a test's label", () => {
  expect(testedVersion("claude", "0.0.1")).toBe(installed("@anthropic-ai/claude-code"));
  expect(testedVersion("codex", "0.0.1")).toBe(installed("@openai/codex"));
  expect(testedVersion("no-such-agent", "1.2.3")).toBe("1.2.3");
});

test("an agent whose e2e files did not run keeps its row; one that ran gets its new one", () => {
  const previous = [
    "| Claude Code | 2.1.1 | yes | yes | yes | yes | yes | yes |",
    "| Gemini CLI | 0.61.0 | yes | yes | yes | yes | yes | yes |",
  ].join("\n");
  const table = renderMatrix(
    { claude: { version: "2.1.332", cells: { failure: { ok: true }, stopGate: { ok: false } } } },
    previous,
  );
  expect(table).toContain(
    "| Claude Code | 2.1.332 | yes | not tested | not tested | not tested | not tested | **FAILED** |",
  );
  expect(table).toContain("| Gemini CLI | 0.61.0 | yes | yes | yes | yes | yes | yes |");
  expect(table).toContain("| Qwen Code | - | not tested |");
});
