/**
 * The callbacks table after a compaction, with the real Codex CLI and `cpilot install
 * codex --trust-project` against the scripted model: UserPromptSubmit tells it with the
 * prompt; `model_auto_compact_token_limit = 1` makes Codex compact after the first tool
 * call (its summary request goes to the fake, which answers "ok"), and Codex then fires
 * SessionStart with `source: "compact"`, whose context tells the table again in the next
 * request, which the compacted history no longer holds otherwise.
 */
import { expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { e2eSessions } from "../../support/e2e-sessions.ts";
import { agentProject, LINT } from "../gemini/_agent-project.ts";
import { codexCli } from "./_codex-cli.ts";

/** Codex compacting its history before every request past the first. */
const sessions = e2eSessions({
  ...codexCli,
  home: (apiUrl) => {
    const home = codexCli.home(apiUrl);
    const config = join(home, "config.toml");
    writeFileSync(config, `model_auto_compact_token_limit = 1\n${readFileSync(config, "utf8")}`);
    return home;
  },
});

const TABLE = "cpilot runs these checks when you edit matching files";
const COMPACTION = "CONTEXT CHECKPOINT COMPACTION";

test("the callbacks table is told with the prompt and again after a compaction", async () => {
  const project = agentProject("codex", { callbacks: [LINT] }, { "src/.keep": "" });
  let turns = 0;
  // the first request runs a command; the one after the compaction ends the turn
  const s = await sessions.start(
    project,
    () => (turns++ === 0 ? [{ tool: "exec_command", args: { cmd: "ls" } }] : [{ text: "done" }]),
    ["--trust-project"],
  );
  const run = await s.run("do the task");
  expect(run.code).toBe(0);
  expect(s.api.escapes()).toEqual([]);
  const text = (r: { body: unknown }) => JSON.stringify(r.body ?? "");
  const [first, afterCompaction] = s.api.turns();
  expect(text(first!)).toContain(TABLE);
  // Codex compacted in between: its summary request went out before the second turn
  const summary = s.api.requests.findIndex((r) => text(r).includes(COMPACTION));
  expect(summary).toBeGreaterThan(s.api.requests.indexOf(first!));
  expect(summary).toBeLessThan(s.api.requests.indexOf(afterCompaction!));
  expect(text(afterCompaction!)).toContain(TABLE);
  expect(run.stderr).toContain("hook: SessionStart");
  expect(s.api.turns()).toHaveLength(2);
}, 300_000);
