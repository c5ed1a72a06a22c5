/**
 * A workspace whose package has its own tracked callbacks config, which judges the
 * package's files (the nearest config decides). A file the agent writes there through its
 * shell, from the repository's top, is checked by that config: told in the shell call's
 * result and holding the stop, whatever the root's own callbacks match.
 */
import { expect, test } from "bun:test";
import { LINT } from "../agents/gemini/_agent-project.ts";
import { afterShell, committedCodexProject, stop, turnStarts } from "./_codex-shell-turn.ts";

const PY_ONLY = { ...LINT, name: "py", pattern: "**/*.py" };

for (const [what, rootCallback] of [
  ["the root checks .ts files too", LINT],
  ["the root checks only .py files", PY_ONLY],
] as const)
  test(`a shell-written error in a package with its own config is told and holds the stop (${what})`, () => {
    const p = committedCodexProject(
      { callbacks: [rootCallback] },
      {
        ".gitignore": ".cpilot/\n",
        "packages/p0/callbacks.config.json": JSON.stringify({ callbacks: [LINT] }),
        "packages/p0/src/a.ts": "export const a = 1;\n",
      },
    );
    turnStarts(p);
    p.write({ "packages/p0/src/b.ts": "export const b = BAD;\n" });
    const after = afterShell(p);
    expect(after).toContain("cpilot: in packages/p0/, judged by its own config:");
    expect(after).toContain("BAD in src/b.ts");
    expect(stop(p)).toContain("BAD in src/b.ts");
    // fixed through the shell: the stop is let through
    p.write({ "packages/p0/src/b.ts": "export const b = 2;\n" });
    expect(afterShell(p)).not.toContain("BAD");
    expect(stop(p)).not.toContain("block");
  });

for (const ignored of [true, false])
  test(`a package's edit-tool write and its own .cpilot/ state are not the shell's (.cpilot/ ${ignored ? "" : "not "}in .gitignore)`, () => {
    const p = committedCodexProject(
      { callbacks: [LINT] },
      {
        ...(ignored ? { ".gitignore": ".cpilot/\n" } : {}),
        "packages/p0/callbacks.config.json": JSON.stringify({ callbacks: [LINT] }),
        "packages/p0/src/a.ts": "export const a = 1;\n",
      },
    );
    turnStarts(p);
    p.write({ "packages/p0/src/a.ts": "export const a = 2;\n" });
    const patch =
      "*** Begin Patch\n*** Update File: packages/p0/src/a.ts\n@@\n-export const a = 1;\n+export const a = 2;\n*** End Patch\n";
    const edit = p.hook({
      hook_event_name: "PostToolUse",
      tool_name: "apply_patch",
      tool_input: { command: patch },
      tool_use_id: "call_0",
      tool_response: "",
    });
    expect(edit.code).toBe(0);
    // a folder named .cpilot beside no config is no state of cpilot's: its file is the agent's
    // (unless the project's own .gitignore hides every .cpilot/, as init writes it)
    p.write({ "packages/p0/src/.cpilot/hidden.ts": "export const h = BAD;\n" });
    const after = afterShell(p, "ls");
    expect(after).not.toContain("packages/p0/src/a.ts");
    expect(after).not.toContain("packages/p0/.cpilot");
    if (!ignored) expect(after).toContain("packages/p0/src/.cpilot/hidden.ts");
  });

test("one patch across two packages with their own configs: each package's error is told in that call", () => {
  const p = committedCodexProject(
    { callbacks: [LINT] },
    {
      ".gitignore": ".cpilot/\n",
      "packages/p0/callbacks.config.json": JSON.stringify({ callbacks: [LINT] }),
      "packages/p1/callbacks.config.json": JSON.stringify({ callbacks: [LINT] }),
      "packages/p0/src/a.ts": "export const a = 1;\n",
      "packages/p1/src/b.ts": "export const b = 1;\n",
    },
  );
  turnStarts(p);
  p.write({
    "packages/p0/src/a.ts": "export const a = BAD;\n",
    "packages/p1/src/b.ts": "export const b = BAD;\n",
  });
  const patch = [
    "*** Begin Patch",
    "*** Update File: packages/p0/src/a.ts",
    "@@",
    "-export const a = 1;",
    "+export const a = BAD;",
    "*** Update File: packages/p1/src/b.ts",
    "@@",
    "-export const b = 1;",
    "+export const b = BAD;",
    "*** End Patch",
    "",
  ].join("\n");
  const told = JSON.stringify(
    p.hook({
      hook_event_name: "PostToolUse",
      tool_name: "apply_patch",
      tool_input: { command: patch },
      tool_use_id: "call_0",
      tool_response: "",
    }).json,
  );
  expect(told).toContain("cpilot: in packages/p0/, judged by its own config:");
  expect(told).toContain("BAD in src/a.ts");
  expect(told).toContain("cpilot: in packages/p1/, judged by its own config:");
  expect(told).toContain("BAD in src/b.ts");
});
