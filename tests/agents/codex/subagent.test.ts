/**
 * What a Codex CLI subagent writes, with the real CLI and `cpilot install codex
 * --trust-project` against the scripted model. Codex 0.171 offers the model subagents (its
 * `collaboration` tools: spawn_agent, wait_agent) only with `features.multi_agent_v2`
 * (without it the first request offers no agent tool: measured), so this session turns it
 * on. The subagent's tool calls fire the project's hooks: its apply_patch and its shell
 * write are checked in its own results. Its end fires SubagentStop (not Stop), held with
 * its own count of held stops; when it gives up, the parent's Stop is held with what it
 * left failing.
 */

import { test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { e2eSessions } from "../../support/e2e-sessions.ts";
import type { Step } from "../../support/fake-openai.ts";
import {
  expectSubagentChecked,
  PARENT_AFTER,
  playSubagentSession,
  SUBTASK,
  subagentWrites,
} from "../../support/subagent-session.ts";
import { codexCli } from "./_codex-cli.ts";

/** Codex with its subagent tools on. */
const sessions = e2eSessions({
  ...codexCli,
  home: (apiUrl) => {
    const home = codexCli.home(apiUrl);
    const config = join(home, "config.toml");
    const text = readFileSync(config, "utf8");
    writeFileSync(config, text.replace("[features]\n", "[features]\nmulti_agent_v2 = true\n"));
    return home;
  },
});

const collaboration = (tool: string, args: Record<string, unknown>) => ({
  tool,
  namespace: "collaboration",
  args,
});

test("a subagent's edit and shell write are checked, its stop held; then the parent's", async () => {
  const r = await playSubagentSession(
    sessions,
    "codex",
    {
      delegate: collaboration("spawn_agent", {
        task_name: "writer",
        message: SUBTASK,
        fork_turns: "none",
      }),
      parentAfter: [[collaboration("wait_agent", { timeout_ms: 120_000 })], ...PARENT_AFTER],
      sub: subagentWrites<Step>({
        write: (path, content) => ({
          customTool: "apply_patch",
          input: `*** Begin Patch\n*** Add File: ${path}\n${content
            .split("\n")
            .filter((l) => l !== "")
            .map((l) => `+${l}`)
            .join("\n")}\n*** End Patch\n`,
        }),
        shell: (command) => ({ tool: "exec_command", args: { cmd: command } }),
        finish: (text) => ({ text }),
      }),
    },
    ["--trust-project"],
  );
  expectSubagentChecked(r, true, 1);
}, 300_000);
