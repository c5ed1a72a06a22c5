/** End to end: a notify posted by a trigger reaches Claude Code through `cpilot hook claude`. */
import { expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { join } from "node:path";
import { tempDir, writeFiles } from "../helpers/tmp.ts";
import { BUN, MAIN } from "./_helpers.ts";

function hook(cwd: string, payload: Record<string, unknown>) {
  const child = spawn(BUN, [MAIN, "hook", "claude"], {
    cwd,
    env: { ...process.env, AI_AGENT: "claude-code_2-1-330_cli" },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (c: Buffer) => {
    out += c.toString();
  });
  child.stdin.end(JSON.stringify({ session_id: "s1", cwd, ...payload }));
  return new Promise<string>((resolve) => child.on("close", () => resolve(out)));
}

test("a hook's notify appears in the agent's next hook reply for its session, once", async () => {
  const root = tempDir("cpilot-claude-hooks-", { git: true });
  writeFiles(root, {
    "callbacks.config.json": JSON.stringify({
      agent: { announceCallbacks: false },
      callbacks: [
        {
          name: "tsc",
          pattern: "*.ts",
          run: "echo 'src/a.ts(1,1): error TS2322: nope'; echo '  more detail'",
          timeout: 20,
          onOutput: {
            match: "error TS\\d+",
            // the run's end fires the window at once: a long delay holds both lines however
            // late the second is read on a busy machine
            delay: 5,
            action: "notify",
            message: "fix the type",
          },
        },
      ],
    }),
    "a.ts": "x",
  });
  const file = join(root, "a.ts");
  const edit = await hook(root, {
    hook_event_name: "PostToolBatch",
    tool_calls: [
      {
        tool_name: "Write",
        tool_input: { file_path: file, content: "x" },
        tool_use_id: "toolu_1",
        tool_response: `File created successfully at: ${file}`,
      },
    ],
  });
  const next = await hook(root, { hook_event_name: "UserPromptSubmit", prompt: "go on" });
  const again = await hook(root, { hook_event_name: "UserPromptSubmit", prompt: "and?" });
  const seen = `${edit}\n${next}`;
  expect(seen).toContain("'tsc'");
  expect(seen).toContain("printed a line matching /error TS\\\\d+/");
  expect(seen).toContain("fix the type");
  expect(seen).toContain("error TS2322: nope");
  expect(seen).toContain("more detail");
  expect(again).not.toContain("error TS2322");
  const other = await hook(root, {
    hook_event_name: "UserPromptSubmit",
    session_id: "s2",
    prompt: "hi",
  });
  expect(other).not.toContain("error TS2322");
});
