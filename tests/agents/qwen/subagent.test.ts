/**
 * What a Qwen Code subagent writes, with the real CLI and `cpilot install qwen` against the
 * scripted model: the parent hands the work to the general-purpose subagent (its `agent`
 * tool, waiting for it), whose tool calls fire the session's hooks (with its `agent_id`):
 * its edit and its shell write are checked in its own results. Its own stop (SubagentStop,
 * with its `agent_id`) is held with its own count of `agent.maxStopBlocks`; when it gives
 * up, the parent's Stop is held with what it left failing, its own count untouched.
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
import { qwenCli } from "./_qwen-cli.ts";

const sessions = e2eSessions(qwenCli);

test("a subagent's edit and shell write are checked, its stop held; then the parent's", async () => {
  const r = await playSubagentSession(
    sessions,
    "qwen",
    {
      delegate: {
        tool: "agent",
        args: {
          description: "write a.ts",
          prompt: SUBTASK,
          subagent_type: "general-purpose",
          run_in_background: false,
        },
      },
      parentAfter: PARENT_AFTER,
      sub: subagentWrites<Step>({
        write: (path, content) => ({ tool: "write_file", args: { file_path: path, content } }),
        shell: (command) => ({ tool: "run_shell_command", args: { command } }),
        finish: (text) => ({ text }),
      }),
    },
    [],
  );
  expectSubagentChecked(r, true);
}, 300_000);
