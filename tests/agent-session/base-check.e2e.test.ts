/**
 * The session-start check: at an agent's SessionStart, cpilot checks the project in the
 * background so the first edit has a record of the content before it, and the old errors of
 * the file the agent edits are known old, not "cannot tell".
 */
import { expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { contextOf, postBatch } from "../agents/claude/_helpers.ts";
import { cpilot } from "../helpers/binary.ts";
import { committedRepo, waitFor } from "../helpers/tmp.ts";

const BAD = `grep -n -H BAD "$@" | sed -E 's/^([^:]+):([0-9]+):.*$/\\1:\\2:1: error: the word is banned [bad]/'; ! grep -q BAD "$@"`;
const ENV = { AI_AGENT: "claude-code_2-1-330_cli", CPILOT_BASE_CHECK: "" };

function hook(root: string, payload: Record<string, unknown>): string {
  const r = cpilot(["hook", "claude"], {
    cwd: root,
    env: ENV,
    input: JSON.stringify({ session_id: "s1", cwd: root, ...payload }),
  });
  expect(r.stderr).toBe("");
  return r.stdout.trim() === "" ? "" : contextOf(JSON.parse(r.stdout));
}

function project(): string {
  return committedRepo("cpilot-base-check-", {
    ".gitignore": ".cpilot/\n",
    "callbacks.config.json": JSON.stringify({
      callbacks: [
        { name: "bad", pattern: "*.txt", timeout: 30, run: BAD },
        // A fixer is left out: nothing is rewritten behind the agent.
        { name: "upper", pattern: "*.txt", timeout: 30, fixes: true, run: 'sed -i "s/x/X/" "$@"' },
      ],
    }),
    "a.txt": "BAD old\nx\n",
  });
}

test("a check at session start gives the first edit its before: the edited file's old error is old", async () => {
  const root = project();
  hook(root, { hook_event_name: "SessionStart", source: "startup" });
  const results = join(root, ".git", "cpilot", "cache", "results");
  expect(await waitFor(() => existsSync(results) && readdirSync(results).length > 0, 30_000)).toBe(
    true,
  );
  expect(readFileSync(join(root, "a.txt"), "utf8")).toBe("BAD old\nx\n");
  writeFileSync(join(root, "a.txt"), "BAD old\nx\nBAD mine\n");
  const told = hook(root, postBatch([join(root, "a.txt")]));
  expect(told).toContain("a.txt:3:1 error bad");
  expect(told).toContain("already there before your edit, in the files you edited:");
  expect(told).toContain("a.txt:1:1 error bad");
  expect(told).not.toContain("cannot place");
}, 60_000);

test("without it the same first edit cannot place the old error", () => {
  const root = project();
  writeFileSync(join(root, "a.txt"), "BAD old\nx\nBAD mine\n");
  const told = hook(root, postBatch([join(root, "a.txt")]));
  expect(told).toContain("cannot place");
}, 60_000);

/** Each agent's first event of a session, as it sends it (Gemini CLI has no session start). */
const FIRST_EVENTS: readonly [string, Record<string, unknown>][] = [
  ["qwen", { session_id: "s1", hook_event_name: "SessionStart", source: "startup" }],
  ["gemini", { session_id: "s1", hook_event_name: "BeforeAgent", prompt: "go" }],
  ["copilot", { sessionId: "s1", timestamp: 1, source: "new", initialPrompt: "hi" }],
];

for (const [agent, payload] of FIRST_EVENTS) {
  test(`${agent}: the first event of a session starts the check in the background`, async () => {
    const root = project();
    const results = join(root, ".git", "cpilot", "cache", "results");
    const r = cpilot(["hook", agent], {
      cwd: root,
      env: { CPILOT_BASE_CHECK: "" },
      input: JSON.stringify({ cwd: root, ...payload }),
    });
    expect(r.code).toBe(0);
    expect(
      await waitFor(() => existsSync(results) && readdirSync(results).length > 0, 30_000),
    ).toBe(true);
    // the fixer was left out: nothing rewritten behind the agent
    expect(readFileSync(join(root, "a.txt"), "utf8")).toBe("BAD old\nx\n");
  }, 60_000);
}
