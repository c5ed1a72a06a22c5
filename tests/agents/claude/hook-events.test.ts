/** `cpilot hook claude` alone: Stop, SessionStart / UserPromptSubmit, PreToolUse (the gate). */
import { afterEach, describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { contextOf, makeProject, type Project, postWrite } from "./_helpers.ts";

const projects: Project[] = [];
afterEach(() => {
  for (const p of projects.splice(0)) p.remove();
});
function project(config: unknown, files: Record<string, string> = {}): Project {
  const p = makeProject(config, files);
  projects.push(p);
  return p;
}

const stop = (message = "done") => ({
  hook_event_name: "Stop",
  stop_hook_active: false,
  last_assistant_message: message,
});

describe("Stop", () => {
  const config = (extra: Record<string, unknown> = {}) => ({
    ...extra,
    callbacks: [
      {
        name: "lint",
        pattern: "*.ts",
        run: 'grep -q BAD "$CP_CHANGED_FILE" && { echo "found BAD"; exit 1; }; exit 0',
        timeout: 10,
        per: "file",
      },
    ],
  });

  test("blocks while a blocking callback of the session still fails, and not once it is fixed", () => {
    const p = project(config(), { "a.ts": "BAD\n" });
    expect((p.hook(postWrite(p.path("a.ts"))).json as { decision: string }).decision).toBe("block");
    const blocked = p.hook(stop()).json as { decision: string; reason: string };
    expect(blocked.decision).toBe("block");
    expect(blocked.reason).toContain(
      "cpilot: do not stop yet: this needs fixing first (reminder 1 of at most 3):",
    );
    expect(blocked.reason).toContain("✗ 'lint' failed on a.ts: exit 1 (failed)\n  found BAD");
    // Fixed without an edit tool (as Bash would): the stop re-runs the check and lets it go.
    writeFileSync(p.path("a.ts"), "good\n");
    expect(p.hook(stop()).stdout).toBe("");
  });

  test("blocks at most agent.maxStopBlocks times, then tells the person once and stops re-running the checks", () => {
    const counting = {
      agent: { maxStopBlocks: 2 },
      callbacks: [
        {
          name: "lint",
          pattern: "*.ts",
          run: 'echo run >> runs.txt; grep -q BAD "$CP_CHANGED_FILE" && { echo "found BAD"; exit 1; }; exit 0',
          timeout: 10,
          per: "file",
        },
      ],
    };
    const p = project(counting, { "a.ts": "BAD\n" });
    const runs = () => readFileSync(p.path("runs.txt"), "utf8").split("\n").length - 1;
    p.hook(postWrite(p.path("a.ts")));
    expect(p.hook(stop()).json).toMatchObject({ decision: "block" });
    expect(p.hook({ ...stop(), stop_hook_active: true }).json).toMatchObject({ decision: "block" });
    const before = runs();
    const third = p.hook({ ...stop(), stop_hook_active: true }).json as Record<string, string>;
    expect(third.decision).toBeUndefined();
    expect(third.systemMessage).toContain(
      "cpilot: stopped blocking: the agent was reminded 2 times (agent.maxStopBlocks = 2)",
    );
    // It will not block, so the check is not run again, now or at later stops.
    expect(p.hook(stop()).stdout).toBe("");
    expect(runs()).toBe(before);
  });

  test("a per-batch callback that passes on b.ts does not forget that it failed on a.ts", () => {
    const p = project(
      {
        callbacks: [
          {
            name: "lint",
            pattern: "*.ts",
            run: 'for f in "$@"; do grep -q BAD "$f" && { echo "BAD in $f"; exit 1; }; done; exit 0',
            timeout: 10,
          },
        ],
      },
      { "a.ts": "BAD\n", "b.ts": "good\n" },
    );
    // no PostToolBatch in this Claude Code: PostToolUse runs the per-batch callbacks
    expect(p.hook(postWrite(p.path("a.ts")), {}).json).toMatchObject({ decision: "block" });
    expect(p.hook(postWrite(p.path("b.ts"), "toolu_2"), {}).stdout).toBe("");
    const blocked = p.hook(stop()).json as { decision: string; reason: string };
    expect(blocked.decision).toBe("block");
    expect(blocked.reason).toContain("BAD in a.ts");
    writeFileSync(p.path("a.ts"), "good\n");
    expect(p.hook(stop()).stdout).toBe("");
  });

  test("another session's failures do not block this one", () => {
    const p = project(config(), { "a.ts": "BAD\n" });
    // the other session's turn starts after a.ts was written: a.ts is not its edit
    p.hook({ hook_event_name: "UserPromptSubmit", session_id: "other", prompt: "hi" });
    p.hook(postWrite(p.path("a.ts")));
    expect(p.hook({ ...stop(), session_id: "other" }).stdout).toBe("");
  });

  test("a session with no record of its turn's start cannot tell its edits: changed files are checked", () => {
    const p = project(config(), { "a.ts": "BAD\n" });
    p.hook(postWrite(p.path("a.ts")));
    const r = p.hook({ ...stop(), session_id: "other" }).json as Record<string, string>;
    expect(r.decision).toBe("block");
    expect(r.reason).toContain("failed on a.ts");
  });

  test("context updates in the final message are applied once and reported to the person", () => {
    const p = project(config(), { ".context/TASKS.md": "# Tasks\n\n## Open\n\n- old task\n" });
    const message =
      'All done.\n<context-update file="TASKS.md" action="add" section="Open">\n- write the docs\n</context-update>';
    const r = p.hook(stop(message)).json as Record<string, string>;
    expect(r.decision).toBeUndefined();
    expect(r.systemMessage).toContain("context updates: 1 applied");
    expect(readFileSync(p.path(".context/TASKS.md"), "utf8")).toContain("- write the docs");
    expect(p.hook(stop(message)).stdout).toBe(""); // the same message is not applied twice
    expect(readFileSync(p.path(".context/TASKS.md"), "utf8").match(/write the docs/g)).toHaveLength(
      1,
    );
  });

  test("a context update that fails blocks the stop once, with what failed and how to fix it", () => {
    const p = project(config(), { ".context/TASKS.md": "# Tasks\n\n## Open\n\n- old task\n" });
    const message =
      '<context-update file="TASKS.md" action="update" id="no such task">\n- x\n</context-update>';
    const r = p.hook(stop(message)).json as Record<string, string>;
    expect(r.decision).toBe("block");
    expect(r.reason).toContain("FAILED: update TASKS.md");
    expect(r.reason).toContain("Send a corrected <context-update> block for each FAILED one only");
    expect(p.hook(stop(message)).stdout).toBe("");
  });

  test("the final message is read from the transcript when the payload lacks it (older versions)", () => {
    const p = project(config(), { ".context/TASKS.md": "# Tasks\n\n## Open\n" });
    const transcript = p.path("t.jsonl");
    const lines = [
      { type: "user", message: { role: "user", content: "go" } },
      {
        type: "assistant",
        message: { role: "assistant", content: [{ type: "text", text: "Done." }] },
      },
      {
        type: "assistant",
        message: {
          role: "assistant",
          content: [
            {
              type: "text",
              text: '<context-update file="TASKS.md" action="add" section="Open">\n- from transcript\n</context-update>',
            },
          ],
        },
      },
    ];
    writeFileSync(transcript, `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
    const r = p.hook({ hook_event_name: "Stop", transcript_path: transcript }).json as Record<
      string,
      string
    >;
    expect(r.systemMessage).toContain("1 applied");
    expect(readFileSync(p.path(".context/TASKS.md"), "utf8")).toContain("- from transcript");
  });
});

describe("SessionStart and UserPromptSubmit", () => {
  const config = {
    callbacks: [
      {
        name: "lint",
        description: "eslint on the file",
        pattern: ["*.ts", "*.tsx"],
        run: "true",
        timeout: 10,
        per: "file",
      },
      { name: "e2e", pattern: "tests/", run: "true", blocking: false },
    ],
  };

  test("the callbacks table is shown once per session, by whichever event comes first", () => {
    const p = project(config);
    const first = p.hook({ hook_event_name: "SessionStart", source: "startup" });
    expect(contextOf(first.json)).toBe(
      [
        "cpilot runs these checks when you edit matching files (results come back to you as hook messages):",
        "| callback | files | runs | what it does |",
        "|---|---|---|---|",
        "| lint | *.ts *.tsx | blocking, per file | eslint on the file |",
        "| e2e | tests/ | background, per batch | true |",
        "A failed blocking check must be fixed before you finish; `cpilot logs <run>` shows a run's full output.",
      ].join("\n"),
    );
    expect(
      (first.json as { hookSpecificOutput: { hookEventName: string } }).hookSpecificOutput
        .hookEventName,
    ).toBe("SessionStart");
    expect(p.hook({ hook_event_name: "UserPromptSubmit", prompt: "hi" }).stdout).toBe("");
    expect(
      contextOf(
        p.hook({ hook_event_name: "UserPromptSubmit", session_id: "s2", prompt: "hi" }).json,
      ),
    ).toContain("| lint |");
  });

  test("a compaction or a clear, which replace the history that held it, brings the table again", () => {
    const p = project(config);
    expect(
      contextOf(p.hook({ hook_event_name: "SessionStart", source: "startup" }).json),
    ).toContain("| lint |");
    expect(p.hook({ hook_event_name: "SessionStart", source: "resume" }).stdout).toBe("");
    for (const source of ["compact", "clear"]) {
      const again = p.hook({ hook_event_name: "SessionStart", source });
      expect(contextOf(again.json)).toContain("| lint |");
    }
    expect(p.hook({ hook_event_name: "UserPromptSubmit", prompt: "hi" }).stdout).toBe("");
  });

  test("announceCallbacks: false shows nothing", () => {
    const p = project({ ...config, agent: { announceCallbacks: false } });
    expect(p.hook({ hook_event_name: "SessionStart" }).stdout).toBe("");
  });
});

describe("PreToolUse: the write gate", () => {
  const pre = (tool: string, input: Record<string, unknown>) => ({
    hook_event_name: "PreToolUse",
    permission_mode: "bypassPermissions",
    tool_name: tool,
    tool_input: input,
    tool_use_id: "toolu_1",
  });

  test("a malformed MultiEdit still gets the gate's verdict, never an internal error", () => {
    const p = project({
      callbacks: [],
      gate: { rules: [{ action: "deny", pattern: "vendor/", reason: "read-only" }] },
    });
    // not a regular file: read, it would block the hook for good (or fill memory: /dev/zero)
    execFileSync("mkfifo", [p.path("fifo.ts")]);
    const fifo = p.hook(
      pre("MultiEdit", {
        file_path: p.path("fifo.ts"),
        edits: [{ old_string: "a", new_string: "b" }],
      }),
    );
    expect(fifo.code).toBe(0);
    expect(fifo.stderr).not.toContain("internal error");
    for (const edits of [[null], [42, { old_string: "a", new_string: "b" }], "nope"]) {
      const r = p.hook(pre("MultiEdit", { file_path: p.path("vendor/x.ts"), edits }));
      expect(r.stderr).not.toContain("internal error");
      expect(
        (r.json as { hookSpecificOutput: Record<string, string> }).hookSpecificOutput,
      ).toMatchObject({ permissionDecision: "deny" });
    }
  });

  test("a denied write: permissionDecision deny with the reason", () => {
    const p = project({
      callbacks: [],
      gate: {
        rules: [{ action: "deny", pattern: "vendor/", reason: "vendored code is read-only" }],
      },
    });
    const env = p.hook(pre("Write", { file_path: p.path(".env"), content: "K=1" })).json as {
      hookSpecificOutput: Record<string, string>;
    };
    expect(env.hookSpecificOutput.permissionDecision).toBe("deny");
    expect(env.hookSpecificOutput.permissionDecisionReason).toContain(".env");
    const vendor = p.hook(
      pre("Edit", { file_path: p.path("vendor/x.ts"), old_string: "a", new_string: "b" }),
    ).json as {
      hookSpecificOutput: Record<string, string>;
    };
    expect(vendor.hookSpecificOutput).toMatchObject({
      hookEventName: "PreToolUse",
      permissionDecision: "deny",
    });
    expect(vendor.hookSpecificOutput.permissionDecisionReason).toContain(
      "vendored code is read-only",
    );
  });

  test("an allowed, unchanged write prints nothing: Claude Code's own permissions still apply", () => {
    const p = project({ callbacks: [] });
    expect(p.hook(pre("Write", { file_path: p.path("src/a.ts"), content: "x" })).stdout).toBe("");
    expect(p.hook(pre("Bash", { command: "rm -rf /" })).stdout).toBe("");
  });

  test("a plugin's change to a Write becomes updatedInput, and the model is told what changed", () => {
    const p = project({
      callbacks: [],
      gate: { plugins: [{ command: ["./upper.sh"], name: "upper" }] },
    });
    writeFileSync(
      p.path("upper.sh"),
      `#!/bin/bash\necho '{"decision":"modify","content":"HEADER\\nx\\n"}'\n`,
    );
    chmodSync(p.path("upper.sh"), 0o755);
    const out = (
      p.hook(pre("Write", { file_path: p.path("a.ts"), content: "x\n" })).json as {
        hookSpecificOutput: Record<string, unknown>;
      }
    ).hookSpecificOutput;
    expect(out.permissionDecision).toBe("allow");
    expect(out.updatedInput).toEqual({ file_path: p.path("a.ts"), content: "HEADER\nx\n" });
    expect(out.additionalContext).toContain("cpilot's write gate changed this Write before it ran");
    expect(out.additionalContext).toContain("+HEADER");
    // In the default permission mode the person still approves the changed write.
    const asked = (
      p.hook({
        ...pre("Write", { file_path: p.path("a.ts"), content: "x\n" }),
        permission_mode: "default",
      }).json as { hookSpecificOutput: Record<string, unknown> }
    ).hookSpecificOutput;
    expect(asked.permissionDecision).toBe("ask");
  });

  test("a plugin's content change to an Edit replaces the whole file in one edit; on a new file it is denied", () => {
    const p = project(
      { callbacks: [], gate: { plugins: [{ command: ["./stamp.sh"], name: "stamp" }] } },
      { "a.ts": "let a = 1;\n" },
    );
    writeFileSync(
      p.path("stamp.sh"),
      `#!/bin/bash\necho '{"decision":"modify","content":"// stamped\\nlet a = 2;\\n"}'\n`,
    );
    chmodSync(p.path("stamp.sh"), 0o755);
    const out = (
      p.hook(pre("Edit", { file_path: p.path("a.ts"), old_string: "1", new_string: "2" })).json as {
        hookSpecificOutput: Record<string, unknown>;
      }
    ).hookSpecificOutput;
    expect(out.permissionDecision).toBe("allow");
    expect(out.updatedInput).toEqual({
      file_path: p.path("a.ts"),
      old_string: "let a = 1;\n",
      new_string: "// stamped\nlet a = 2;\n",
      replace_all: false,
    });
    const denied = (
      p.hook(pre("Edit", { file_path: p.path("new.ts"), old_string: "", new_string: "x" }))
        .json as { hookSpecificOutput: Record<string, string> }
    ).hookSpecificOutput;
    expect(denied.permissionDecision).toBe("deny");
    expect(denied.permissionDecisionReason).toContain(
      "the file does not exist, so the change cannot be expressed as an Edit",
    );
  });

  test("an ask rule never prompts in a hook: the headless mode decides", () => {
    const p = project({
      callbacks: [],
      gate: { rules: [{ action: "ask", pattern: "*.lock" }], headless: "deny" },
    });
    const out = (
      p.hook(pre("Write", { file_path: p.path("yarn.lock"), content: "x" })).json as {
        hookSpecificOutput: Record<string, string>;
      }
    ).hookSpecificOutput;
    expect(out.permissionDecision).toBe("deny");
    expect(out.permissionDecisionReason).toContain("no one can be asked here");
  });
});

test("a project without a cpilot config: every event answers nothing", () => {
  const p = project({ callbacks: [] });
  for (const event of [
    "SessionStart",
    "UserPromptSubmit",
    "PreToolUse",
    "PostToolUse",
    "PostToolBatch",
    "Stop",
  ]) {
    const r = p.hook({ ...postWrite("/tmp/x.ts"), hook_event_name: event, cwd: "/" });
    expect({ event, stdout: r.stdout, code: r.code }).toEqual({ event, stdout: "", code: 0 });
  }
});

test("a new session forgets sessions untouched for a week, and keeps recent ones", () => {
  const p = project({ callbacks: [{ name: "x", pattern: "*", run: "true", timeout: 5 }] });
  p.hook({ hook_event_name: "UserPromptSubmit", session_id: "old", prompt: "x" });
  p.hook({ hook_event_name: "UserPromptSubmit", session_id: "recent", prompt: "x" });
  const week = 8 * 24 * 3600;
  const then = new Date(Date.now() - week * 1000);
  utimesSync(p.path(".git/cpilot/sessions/old"), then, then);
  // a session kept in .cpilot/ by an older cpilot goes the same way
  mkdirSync(p.path(".cpilot/sessions/legacy"), { recursive: true });
  utimesSync(p.path(".cpilot/sessions/legacy"), then, then);
  p.hook({ hook_event_name: "SessionStart", session_id: "new" });
  expect(existsSync(p.path(".git/cpilot/sessions/old"))).toBe(false);
  expect(existsSync(p.path(".cpilot/sessions/legacy"))).toBe(false);
  expect(existsSync(p.path(".git/cpilot/sessions/recent"))).toBe(true);
});
