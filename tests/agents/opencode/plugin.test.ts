/**
 * OpenCode: `cpilot install opencode` writes .opencode/plugins/cpilot.ts; the test imports
 * that generated file in bun and drives its hooks with fake input/output objects, the way
 * OpenCode calls a plugin (OpenCode itself does not run).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { pathWithCpilot } from "../../helpers/binary.ts";
import {
  type AgentProject,
  agentProject,
  binary,
  cpilot,
  FORMAT,
  GATE,
  LINT,
} from "../gemini/_agent-project.ts";

type Hooks = {
  "tool.execute.before": (
    input: Record<string, unknown>,
    output: { args: Record<string, unknown> },
  ) => Promise<void>;
  "tool.execute.after": (
    input: Record<string, unknown>,
    output: { title: string; output: string; metadata: unknown },
  ) => Promise<void>;
};

let project: AgentProject;
let hooks: Hooks;

const savedPath = process.env.PATH;

beforeAll(async () => {
  project = agentProject("opencode", { callbacks: [LINT, FORMAT], gate: GATE });
  // The project plugin is shared with the team: it starts `cpilot` from PATH, never this
  // machine's binary path; here PATH has it, as a teammate who installed cpilot does.
  process.env.PATH = pathWithCpilot();
  const r = cpilot(["install", "opencode"], { cwd: project.dir, env: { PATH: pathWithCpilot() } });
  expect(r.code).toBe(0);
  const file = project.path(".opencode/plugins/cpilot.ts");
  expect(readFileSync(file, "utf8")).toContain('const CPILOT: string[] = ["cpilot"];');
  expect(readFileSync(file, "utf8")).not.toContain(binary());
  const mod = (await import(file)) as Record<string, (ctx: unknown) => Promise<Hooks>>;
  expect(Object.keys(mod)).toEqual(["CpilotPlugin"]);
  hooks = await (mod.CpilotPlugin as (ctx: unknown) => Promise<Hooks>)({
    directory: project.dir,
    worktree: project.dir,
  });
});
afterAll(() => {
  process.env.PATH = savedPath;
  project.remove();
});

let callId = 0;
/** One tool call as OpenCode makes it: before, the tool itself (`apply`), after. */
async function toolCall(
  tool: string,
  args: Record<string, unknown>,
  apply: (args: Record<string, unknown>) => void,
) {
  const input = { tool, sessionID: "ses_1", callID: `call_${++callId}` };
  const before = { args: { ...args } };
  await hooks["tool.execute.before"](input, before);
  apply(before.args);
  const after = { title: "", output: "Wrote file successfully.", metadata: {} };
  await hooks["tool.execute.after"]({ ...input, args: before.args }, after);
  return { args: before.args, output: after.output };
}

const writeTool = (a: Record<string, unknown>) => {
  mkdirSync(dirname(a.filePath as string), { recursive: true });
  writeFileSync(a.filePath as string, a.content as string);
};

describe("the generated OpenCode plugin", () => {
  test("a failing callback is appended to the tool output the model reads", async () => {
    const { output } = await toolCall(
      "write",
      { filePath: project.path("src/a.ts"), content: "BAD\n" },
      writeTool,
    );
    expect(output.startsWith("Wrote file successfully.\n\n")).toBe(true);
    expect(output).toContain("BAD in src/a.ts");
  });

  test("a clean edit leaves the output as it was", async () => {
    const { output } = await toolCall(
      "write",
      { filePath: project.path("src/ok.ts"), content: "fine\n" },
      writeTool,
    );
    expect(output).toBe("Wrote file successfully.");
  });

  test("edit args (filePath, oldString, newString) reach the callbacks; a formatter's diff comes back", async () => {
    writeFileSync(project.path("n.fmt"), "abc\n");
    const { output } = await toolCall(
      "edit",
      { filePath: project.path("n.fmt"), oldString: "abc", newString: "xyz" },
      (a) =>
        writeFileSync(
          a.filePath as string,
          (readFileSync(a.filePath as string, "utf8") as string).replace(
            a.oldString as string,
            a.newString as string,
          ),
        ),
    );
    expect(readFileSync(project.path("n.fmt"), "utf8")).toBe("XYZ\n");
    expect(output).toContain("+XYZ");
  });

  test("a gate deny throws, so the tool never runs", async () => {
    let ran = false;
    const attempt = toolCall(
      "write",
      { filePath: project.path("locked/x.ts"), content: "x" },
      () => {
        ran = true;
      },
    );
    await expect(attempt).rejects.toThrow("locked/ is read-only for agents");
    expect(ran).toBe(false);
    expect(existsSync(project.path("locked/x.ts"))).toBe(false);
  });

  test("a gate plugin's change rewrites the args; the model is told after", async () => {
    const { args, output } = await toolCall(
      "write",
      { filePath: project.path("p.mod"), content: "mine" },
      writeTool,
    );
    expect(args.content).toBe("MODIFIED\n");
    expect(readFileSync(project.path("p.mod"), "utf8")).toBe("MODIFIED\n");
    expect(output).toContain("write gate changed this write");
  });

  test("when cpilot cannot run, a write is refused and its after-event says the checks did not run", async () => {
    const text = readFileSync(project.path(".opencode/plugins/cpilot.ts"), "utf8").replace(
      JSON.stringify(["cpilot"]),
      JSON.stringify(["/nonexistent/cpilot"]),
    );
    expect(text).toContain("/nonexistent/cpilot");
    const file = project.path(".opencode/plugins/broken.ts");
    writeFileSync(file, text);
    const mod = (await import(file)) as { CpilotPlugin: (ctx: unknown) => Promise<Hooks> };
    const broken = await mod.CpilotPlugin({ directory: project.dir });
    const out = { args: { filePath: project.path("locked/y.ts"), content: "y" } };
    await expect(
      broken["tool.execute.before"]({ tool: "write", sessionID: "s", callID: "c" }, out),
    ).rejects.toThrow("could not start");
    const after = { title: "", output: "done", metadata: {} };
    await broken["tool.execute.after"]({ tool: "write", sessionID: "s", callID: "c" }, after);
    expect(after.output).toContain("checks did not run");
  });
});

describe("the generated OpenCode plugin's calls of cpilot", () => {
  test("a tool that writes nothing starts no cpilot before it runs; its after-event and a write's before-event do", async () => {
    const log = project.path("calls.log");
    const recorder = project.path("recording-cpilot");
    // each call's payload, one a line, then the real cpilot answers it
    writeFileSync(recorder, `#!/bin/sh\n{ cat; echo; } | tee -a '${log}' | cpilot "$@"\n`, {
      mode: 0o755,
    });
    const text = readFileSync(project.path(".opencode/plugins/cpilot.ts"), "utf8").replace(
      JSON.stringify(["cpilot"]),
      JSON.stringify([recorder]),
    );
    const file = project.path(".opencode/plugins/recorded.ts");
    writeFileSync(file, text);
    const mod = (await import(file)) as { CpilotPlugin: (ctx: unknown) => Promise<Hooks> };
    const recorded = await mod.CpilotPlugin({ directory: project.dir });
    const calls = () =>
      readFileSync(log, "utf8")
        .trim()
        .split("\n")
        .map((line) => {
          const call = JSON.parse(line) as { hook_event_name: string; tool: string };
          return `${call.hook_event_name} ${call.tool}`;
        });
    for (const [tool, args] of [
      ["bash", { command: "ls" }],
      ["read", { filePath: project.path("src/a.ts") }],
      ["write", { filePath: project.path("src/rec.ts"), content: "export const r = 1;\n" }],
    ] as const) {
      const input = { tool, sessionID: "ses_rec", callID: `rec_${tool}` };
      const before = { args: { ...args } };
      await recorded["tool.execute.before"](input, before);
      if (tool === "write") writeTool(before.args);
      const after = { title: "", output: "ok", metadata: {} };
      await recorded["tool.execute.after"]({ ...input, args: before.args }, after);
    }
    expect(calls()).toEqual([
      "tool.execute.after bash",
      "tool.execute.after read",
      "tool.execute.before write",
      "tool.execute.after write",
    ]);
  });
});

describe("cpilot hook opencode (the plugin's endpoint)", () => {
  test("replies: deny, an explicit allow, additional_context", () => {
    const call = (event: string, tool: string, args: Record<string, unknown>) =>
      project.hook({
        hook_event_name: event,
        tool,
        session_id: "ses_2",
        call_id: "c",
        args,
        cwd: project.dir,
      });
    expect(
      call("tool.execute.before", "edit", {
        filePath: "locked/z.ts",
        oldString: "a",
        newString: "b",
      }).json,
    ).toEqual({
      decision: "deny",
      reason: expect.stringContaining("locked/"),
    });
    expect(call("tool.execute.before", "bash", { command: "ls" }).json).toEqual({
      decision: "allow",
    });
    expect(
      call("tool.execute.before", "write", { filePath: "src/fine.ts", content: "x" }).json,
    ).toEqual({ decision: "allow" });
    writeFileSync(project.path("q.ts"), "BAD\n");
    expect(call("tool.execute.after", "edit", { filePath: project.path("q.ts") }).json).toEqual({
      additional_context: expect.stringContaining("BAD in q.ts"),
    });
    writeFileSync(project.path("r.ts"), "BAD\n");
    const patchText = "*** Begin Patch\n*** Update File: r.ts\n@@\n-a\n+BAD\n*** End Patch";
    expect(call("tool.execute.after", "apply_patch", { patchText }).json).toEqual({
      additional_context: expect.stringContaining("BAD in r.ts"),
    });
  });
});
