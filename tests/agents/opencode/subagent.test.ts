/**
 * What an OpenCode subagent writes, with the real CLI and cpilot's plugin against the
 * scripted model: the parent hands the work to the `general` subagent (its `task` tool),
 * which runs as a child session the plugin hooks like any other: its edit and its shell
 * write are checked in its own results, and its own stop is held (its session's count).
 * When it gives up, the parent's stop is held too: the parent's record of its turn finds
 * the files the child changed.
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
import { opencodeCli } from "./_opencode-cli.ts";

const sessions = e2eSessions(opencodeCli);

test("a subagent's edit and shell write are checked, its stop held; then the parent's", async () => {
  const r = await playSubagentSession(
    sessions,
    "opencode",
    {
      delegate: {
        tool: "task",
        args: { description: "write a.ts", prompt: SUBTASK, subagent_type: "general" },
      },
      parentAfter: PARENT_AFTER,
      sub: subagentWrites<Step>({
        write: (path, content) => ({ tool: "write", args: { filePath: path, content } }),
        shell: (command) => ({ tool: "bash", args: { command, description: "run it" } }),
        finish: (text) => ({ text }),
      }),
    },
    [],
  );
  expectSubagentChecked(r, true);
}, 300_000);
