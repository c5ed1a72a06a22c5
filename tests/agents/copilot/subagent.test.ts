/**
 * What a Copilot CLI subagent writes, with the real CLI and `cpilot install copilot
 * --trust-project` against the scripted model: the parent hands the work to the
 * general-purpose agent (its `task` tool), whose tool calls fire the session's hooks: its
 * edit and its shell write are checked in its own results. Its own stop (subagentStop) is
 * held with its own count of held stops; when it gives up, the parent's (agentStop) is
 * held with what it left failing.
 */
import { test } from "bun:test";
import { e2eSessions } from "../../support/e2e-sessions.ts";
import type { Step } from "../../support/fake-openai.ts";
import {
  expectSubagentChecked,
  PARENT_AFTER,
  playSubagentSession,
  SUBTASK,
  subagentWrites,
} from "../../support/subagent-session.ts";
import { copilotCli } from "./_copilot-cli.ts";

const sessions = e2eSessions(copilotCli);

test("a subagent's edit and shell write are checked, its stop held; then the parent's", async () => {
  const r = await playSubagentSession(
    sessions,
    "copilot",
    {
      delegate: {
        tool: "task",
        args: {
          description: "write a.ts",
          prompt: SUBTASK,
          agent_type: "general-purpose",
          name: "writer",
        },
      },
      parentAfter: PARENT_AFTER,
      sub: subagentWrites<Step>({
        write: (path, content) => ({ tool: "create", args: { path, file_text: content } }),
        shell: (command) => ({ tool: "bash", args: { command, description: "run it" } }),
        finish: (text) => ({ text }),
      }),
    },
    ["--trust-project"],
  );
  expectSubagentChecked(r, true);
}, 300_000);
